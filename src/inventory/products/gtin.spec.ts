import { describe, expect, it } from 'vitest';
import { gs1CheckDigit, gtinProblem } from './gtin.js';

describe('gs1CheckDigit', () => {
  it('computes the check digit of each GS1 length', () => {
    expect(gs1CheckDigit('400638133393')).toBe(1); // EAN-13 4006381333931
    expect(gs1CheckDigit('03600029145')).toBe(2); // UPC-A 036000291452
    expect(gs1CheckDigit('9638507')).toBe(4); // EAN-8 96385074
    expect(gs1CheckDigit('1001234567890')).toBe(2); // GTIN-14 10012345678902
    expect(gs1CheckDigit('000000000000')).toBe(0);
  });
});

describe('gtinProblem', () => {
  it('accepts valid EAN-8, UPC-A, EAN-13 and GTIN-14 codes', () => {
    for (const code of ['96385074', '036000291452', '4006381333931', '10012345678902']) {
      expect(gtinProblem(code)).toBeUndefined();
    }
  });

  it('names the expected digit when the check digit is wrong', () => {
    expect(gtinProblem('4006381333932')).toBe('has a wrong check digit: 2, where 1 was expected');
    expect(gtinProblem('96385075')).toBe('has a wrong check digit: 5, where 4 was expected');
  });

  it('refuses other lengths and anything but digits', () => {
    const message = 'must be 8, 12, 13 or 14 digits (EAN-8, UPC-A, EAN-13 or GTIN-14)';
    for (const code of ['', '1234567', '123456789', '12345678901', '123456789012345']) {
      expect(gtinProblem(code)).toBe(message);
    }
    for (const code of ['400638133393a', '4006381 33931', '+4006381333931', '96385０74']) {
      expect(gtinProblem(code)).toBe(message);
    }
  });
});
