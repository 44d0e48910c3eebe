import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BackupFormatError } from './backup-format.js';
import { parseJsonArray } from './json-array-stream.js';

async function parse(chunks: (string | Buffer)[]): Promise<unknown[]> {
  const rows: unknown[] = [];
  const buffers = chunks.map((chunk) => (Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)));
  for await (const row of parseJsonArray(Readable.from(buffers), 't')) {
    rows.push(row);
  }
  return rows;
}

describe('parseJsonArray', () => {
  it('yields the elements of an array split anywhere, strings with brackets and commas included', async () => {
    const text = JSON.stringify([
      { id: 'a', name: 'x,y]', nested: { list: [1, 2, { z: '"}' }] } },
      [1, [2]],
      'plain',
      3.5,
      null,
      { emoji: 'ü😀' },
    ]);
    const bytes = Buffer.from(text);
    // Byte chunks: multi-byte characters are split too.
    for (const size of [1, 2, 3, 7, bytes.length]) {
      const chunks: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
      expect(await parse(chunks)).toEqual(JSON.parse(text));
    }
  });

  it('reads an empty array, and one row per line as Trove writes them', async () => {
    expect(await parse([' [ ] \n'])).toEqual([]);
    expect(await parse(['[\n{"id":"a"},\n{"id":"b"}\n]\n'])).toEqual([{ id: 'a' }, { id: 'b' }]);
  });

  it('reads whole numbers of more than 15 digits as their text, all digits kept', async () => {
    const text =
      '[{"asset_id":9223372036854775807,"small":123456789012345,"neg":-9007199254740993,' +
      '"big":1.5e300,"fraction":1234567890123456.5,"s":"12345678901234567890 \\" 1234567890123456789"}]';
    expect(await parse([text])).toEqual([
      {
        asset_id: '9223372036854775807',
        small: 123456789012345,
        neg: '-9007199254740993',
        big: 1.5e300,
        fraction: 1234567890123456.5,
        s: '12345678901234567890 " 1234567890123456789',
      },
    ]);
  });

  it('refuses what is not one JSON array', async () => {
    const cases: [string, string][] = [
      ['', 't is not a JSON array: it is empty'],
      ['{"id":1}', 't is not a JSON array: it does not start with "["'],
      ['[1,2', 't is not a JSON array: it is not closed'],
      ['[1,,2]', 't is not a JSON array: empty element'],
      ['[1,{x}]', 't is not a JSON array: an element is not valid JSON'],
      ['[1] 2', 't is not a JSON array: text after the closing "]"'],
    ];
    for (const [text, message] of cases) {
      await expect(parse([text])).rejects.toEqual(new BackupFormatError(message));
    }
  });
});
