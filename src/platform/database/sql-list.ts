/** `'a', 'b'` for a CHECK constraint over fixed values. */
export const sqlList = (values: readonly string[]): string =>
  values.map((value) => `'${value}'`).join(', ');
