import { ValidationFailedException } from './validation-failed.exception.js';

/** One thing wrong in an uploaded file: where (1-based line, column header or null) and why. */
export interface FileProblem {
  line: number;
  column: string | null;
  reason: string;
}

/**
 * A 422 for an uploaded file with problems: `fields.<field>` sums them up and `problems` lists
 * them (the first ones found, `problemCount` in all).
 */
export class FileProblemsException extends ValidationFailedException {
  constructor(
    field: string,
    readonly problems: FileProblem[],
    readonly problemCount: number,
  ) {
    super({
      [field]: `the file has ${problemCount} ${problemCount === 1 ? 'problem' : 'problems'}; nothing was imported`,
    });
  }
}
