/** Lengths of the GS1 codes a product barcode can carry: EAN-8, UPC-A, EAN-13, GTIN-14. */
export const GTIN_LENGTHS: readonly number[] = [8, 12, 13, 14];

/**
 * The GS1 check digit for the digits before it: from the right, weights 3, 1, 3, …; the check
 * digit brings the weighted sum up to a multiple of 10.
 */
export function gs1CheckDigit(payload: string): number {
  let sum = 0;
  for (let index = 0; index < payload.length; index++) {
    const digit = payload.charCodeAt(payload.length - 1 - index) - 48;
    sum += index % 2 === 0 ? digit * 3 : digit;
  }
  return (10 - (sum % 10)) % 10;
}

/** What is wrong with a product code, or undefined when it is a well-formed GTIN. */
export function gtinProblem(code: string): string | undefined {
  if (!/^\d+$/.test(code) || !GTIN_LENGTHS.includes(code.length)) {
    return 'must be 8, 12, 13 or 14 digits (EAN-8, UPC-A, EAN-13 or GTIN-14)';
  }
  const expected = gs1CheckDigit(code.slice(0, -1));
  const given = Number(code.slice(-1));
  return given === expected
    ? undefined
    : `has a wrong check digit: ${given}, where ${expected} was expected`;
}
