import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { onFirstUse } from '../../../platform/runtime/on-first-use.js';

/** The CSV parser, imported with the first import of a file. */
const csvParse = onFirstUse(async () => (await import('csv-parse')).parse);

/** How much of the file is read to find the end of the header line. */
const HEADER_PROBE_BYTES = 64 * 1024;

/** One record of a CSV file: its cells and the line it starts on (from 1). */
export interface CsvRecord {
  cells: string[];
  line: number;
}

/** A record the parser could not read (an unclosed quote, a stray quote...). */
export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/**
 * The separator the header line uses: a tab when it has tabs and no commas, else a comma (as
 * Homebox guesses it). Null for an empty file.
 */
export async function detectDelimiter(file: string): Promise<',' | '\t' | null> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(HEADER_PROBE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEADER_PROBE_BYTES, 0);
    const text = buffer
      .subarray(0, bytesRead)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
    if (text.trim() === '') return null;
    const firstLine = text.split(/\r?\n/, 1)[0];
    return firstLine.includes('\t') && !firstLine.includes(',') ? '\t' : ',';
  } finally {
    await handle.close();
  }
}

/**
 * The records of a CSV file, read as a stream (so memory stays flat whatever its size). Rows
 * may have any number of cells (the caller says which are wrong); blank lines are skipped.
 * A syntax error ends the iteration with a CsvSyntaxError naming its line.
 */
export async function* readCsv(file: string, delimiter: string): AsyncGenerator<CsvRecord> {
  const parse = await csvParse();
  const parser = createReadStream(file).pipe(
    parse({
      delimiter,
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
    }),
  );
  let nextLine = 1;
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      // `info.lines` is the line the record ends on; a quoted cell may span several.
      const line = Math.max(nextLine, info.lines - countLineBreaks(record));
      nextLine = info.lines + 1;
      yield { cells: record, line };
    }
  } catch (error) {
    const line = (error as { lines?: number }).lines ?? nextLine;
    throw new CsvSyntaxError(error instanceof Error ? error.message : String(error), line);
  } finally {
    parser.destroy();
  }
}

const countLineBreaks = (cells: string[]): number =>
  cells.reduce((sum, cell) => sum + (cell.match(/\n/g)?.length ?? 0), 0);
