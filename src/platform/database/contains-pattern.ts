/** The ILIKE pattern that finds `text` anywhere, its wildcards (and backslash) taken literally. */
export const containsPattern = (text: string): string =>
  `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
