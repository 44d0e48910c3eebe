import { describe, expect, it } from 'vitest';
import { useSharedApp } from '../support/api.js';
import { csv, groupCounts, idByRef, importCsv, importOk } from './import-helpers.js';

interface Problem {
  line: number;
  column: string | null;
  reason: string;
}

describe('POST /api/v1/entities/import with a bad file', () => {
  const t = useSharedApp();

  /** Imports `content`, expects a 422 listing exactly `problems`, and that nothing was written. */
  const expectProblems = async (content: string | Buffer, problems: Problem[]): Promise<void> => {
    const before = await groupCounts(t.trove, t.owner.groupId);
    const response = await importCsv(t.trove, t.owner, content);
    expect(response.status, JSON.stringify(response.body)).toBe(422);
    expect(response.body).toEqual({
      error: 'Validation Error',
      fields: {
        csv: `the file has ${problems.length} ${problems.length === 1 ? 'problem' : 'problems'}; nothing was imported`,
      },
      problems,
      problemCount: problems.length,
    });
    expect(await groupCounts(t.trove, t.owner.groupId)).toEqual(before);
  };

  it('a row with the wrong number of cells', async () => {
    await expectProblems('HB.location,HB.name\nAttic,Fan\nAttic,Heater,extra\nAttic\n', [
      { line: 3, column: null, reason: 'the row has 3 cells but the header has 2' },
      { line: 4, column: null, reason: 'the row has 1 cell but the header has 2' },
    ]);
  });

  it('a row without a location, or without a name', async () => {
    await expectProblems(
      csv([
        ['HB.location', 'HB.name'],
        ['Attic', 'Fan'],
        ['', 'Heater'],
        ['Attic', ' '],
      ]),
      [
        {
          line: 3,
          column: 'HB.location',
          reason:
            'HB.location must not be empty: name the location the entity is in, as A / B / C (only a top-level location other rows are in may leave it empty)',
        },
        { line: 4, column: 'HB.name', reason: 'HB.name must not be empty' },
      ],
    );
    await expectProblems(csv([['HB.name'], ['Fan']]), [
      {
        line: 2,
        column: 'HB.location',
        reason:
          'HB.location must not be empty: name the location the entity is in, as A / B / C (only a top-level location other rows are in may leave it empty)',
      },
    ]);
  });

  it('a row that is its own parent, parents in a loop, and a parent no one has', async () => {
    await expectProblems(
      csv([
        ['HB.import_ref', 'HB.parent_import_ref', 'HB.location', 'HB.name'],
        ['a', 'a', 'Attic', 'A'],
        ['b', 'c', 'Attic', 'B'],
        ['c', 'b', 'Attic', 'C'],
      ]),
      [
        {
          line: 2,
          column: 'HB.parent_import_ref',
          reason: 'the row names itself ("a") as its parent',
        },
        {
          line: 3,
          column: 'HB.parent_import_ref',
          reason: 'the parents named loop back to this row: "b" → "c" → "b"',
        },
        {
          line: 4,
          column: 'HB.parent_import_ref',
          reason: 'the parents named loop back to this row: "b" → "c" → "b"',
        },
      ],
    );
    await expectProblems(
      csv([
        ['HB.import_ref', 'HB.parent_import_ref', 'HB.location', 'HB.name'],
        ['d', 'nobody', 'Attic', 'D'],
      ]),
      [
        {
          line: 2,
          column: 'HB.parent_import_ref',
          reason: 'no row of the file and no entity of the group has the import ref "nobody"',
        },
      ],
    );
  });

  it('a parent that would put an imported entity inside itself rolls everything back', async () => {
    await importOk(
      t.trove,
      t.owner,
      csv([
        ['HB.import_ref', 'HB.parent_import_ref', 'HB.location', 'HB.name'],
        ['outer', '', 'Attic', 'Outer'],
        ['inner', 'outer', 'Attic', 'Inner'],
      ]),
    );
    const outer = await idByRef(t.trove, t.owner.groupId, 'outer');
    await expectProblems(
      csv([
        ['HB.import_ref', 'HB.parent_import_ref', 'HB.location', 'HB.name'],
        ['new-1', '', 'Attic', 'New'],
        ['outer', 'inner', 'Attic', 'Outer'],
      ]),
      [
        {
          line: 3,
          column: null,
          reason: 'the entity would end up inside itself (its parent is one of its descendants)',
        },
      ],
    );
    const [row] = await t.trove.query<{ parent_id: string | null; name: string }>(
      'SELECT parent_id, name FROM entities WHERE id = $1',
      [outer],
    );
    expect(row.parent_id).not.toBeNull();
    expect(await t.trove.query('SELECT id FROM entities WHERE import_ref = $1', ['new-1'])).toEqual(
      [],
    );
  });

  it('values that do not parse are named, not stored as empty or 0', async () => {
    await expectProblems(
      csv([
        [
          'HB.location',
          'HB.name',
          'HB.purchase_date',
          'HB.insured',
          'HB.quantity',
          'HB.purchase_price',
          'HB.asset_id',
          'HB.sold_price',
        ],
        ['Attic', 'Fan', '31/02/2026', 'yes', 'two', '12.34567', 'A-1', '-3'],
        ['Attic', 'Heater', '2026-02-30', '', '', '', '', ''],
      ]),
      [
        {
          line: 2,
          column: 'HB.purchase_date',
          reason: '"31/02/2026" is not a date (YYYY-MM-DD, MM/DD/YYYY, YYYY/MM/DD or RFC 3339)',
        },
        {
          line: 2,
          column: 'HB.insured',
          reason: '"yes" is not a boolean (true, false, 1, 0, t or f)',
        },
        { line: 2, column: 'HB.quantity', reason: '"two" is not a number' },
        {
          line: 2,
          column: 'HB.purchase_price',
          reason: 'HB.purchase_price must have at most 4 decimal places',
        },
        {
          line: 2,
          column: 'HB.asset_id',
          reason: '"A-1" is not an asset id (like 000-123 or 123)',
        },
        { line: 2, column: 'HB.sold_price', reason: 'HB.sold_price must not be negative' },
        {
          line: 3,
          column: 'HB.purchase_date',
          reason: '"2026-02-30" is not a date (YYYY-MM-DD, MM/DD/YYYY, YYYY/MM/DD or RFC 3339)',
        },
      ],
    );
  });

  it('values longer than an entity takes', async () => {
    await expectProblems(
      csv([
        ['HB.import_ref', 'HB.location', 'HB.name', 'HB.notes', 'HB.field.Note'],
        ['r'.repeat(101), 'Attic', 'n'.repeat(256), 'x'.repeat(1001), 'y'.repeat(501)],
      ]),
      [
        {
          line: 2,
          column: 'HB.import_ref',
          reason: 'HB.import_ref must be at most 100 characters',
        },
        { line: 2, column: 'HB.name', reason: 'HB.name must be at most 255 characters' },
        { line: 2, column: 'HB.notes', reason: 'HB.notes must be at most 1000 characters' },
        {
          line: 2,
          column: 'HB.field.Note',
          reason: 'a custom field value must be at most 500 characters',
        },
      ],
    );
  });

  it('the same import ref twice', async () => {
    await expectProblems(
      csv([
        ['HB.import_ref', 'HB.location', 'HB.name'],
        ['same', 'Attic', 'One'],
        ['same', 'Attic', 'Two'],
      ]),
      [
        {
          line: 3,
          column: 'HB.import_ref',
          reason: 'the import ref "same" is already used on line 2',
        },
      ],
    );
  });

  it('a header that is not Homebox’s, or names a column twice', async () => {
    await expectProblems('name,HB.location\nFan,Attic\n', [
      {
        line: 1,
        column: 'name',
        reason: 'a column header must start with HB. (is this a Homebox CSV file?)',
      },
    ]);
    await expectProblems('HB.location,HB.name,HB.tags,HB.labels\nAttic,Fan,a,b\n', [
      {
        line: 1,
        column: 'HB.labels',
        reason: 'the column says the same as HB.tags, which comes before it',
      },
    ]);
  });

  it('an empty file, and a file with only a header', async () => {
    await expectProblems('', [{ line: 1, column: null, reason: 'the file is empty' }]);
    await expectProblems('\n\n', [{ line: 1, column: null, reason: 'the file is empty' }]);
    await expectProblems('HB.location,HB.name\n', [
      { line: 2, column: null, reason: 'the file has a header but no data rows' },
    ]);
  });

  it('a file that is not CSV at all', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    await expectProblems(png, [
      { line: 1, column: null, reason: 'the file is not UTF-8 text (not a CSV file?)' },
    ]);
    await expectProblems('{"items": [{"name": "Fan"}]}\n', [
      {
        line: 1,
        column: null,
        reason:
          'the file cannot be read as CSV: Invalid Opening Quote: a quote is found on field 0 at line 1, value is "{"',
      },
    ]);
    await expectProblems('Shopping list\nmilk\n', [
      {
        line: 1,
        column: 'Shopping list',
        reason: 'a column header must start with HB. (is this a Homebox CSV file?)',
      },
    ]);
    await expectProblems('HB.location,HB.name\nAttic,"Fan\n', [
      {
        line: 2,
        column: null,
        reason: expect.stringMatching(/^the file cannot be read as CSV: /),
      },
    ]);
  });

  it('lists the first 100 problems and counts them all', async () => {
    const rows = [['HB.location', 'HB.name', 'HB.quantity']];
    for (let index = 0; index < 150; index++) rows.push(['Attic', `Box ${index}`, 'many']);
    const before = await groupCounts(t.trove, t.owner.groupId);
    const response = await importCsv(t.trove, t.owner, csv(rows));
    expect(response.status).toBe(422);
    expect(response.body.problemCount).toBe(150);
    expect(response.body.problems).toHaveLength(100);
    expect(response.body.problems[99]).toEqual({
      line: 101,
      column: 'HB.quantity',
      reason: '"many" is not a number',
    });
    expect(await groupCounts(t.trove, t.owner.groupId)).toEqual(before);
  });

  it('no file', async () => {
    const response = await t.trove.http
      .post('/api/v1/entities/import')
      .set('Authorization', t.owner.authorization)
      .field('other', 'x');
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      error: 'Validation Error',
      fields: { csv: 'csv is required: send the file as the multipart field "csv"' },
    });
  });
});
