import { expect } from 'vitest';
import type { Session } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';

export const IMPORT_URL = '/api/v1/entities/import';

/** Posts `content` as the multipart field `csv`. */
export function importCsv(
  trove: TestApp,
  session: Session,
  content: string | Buffer,
  fileName = 'entities.csv',
): ReturnType<TestApp['http']['post']> {
  return trove.http
    .post(IMPORT_URL)
    .set('Authorization', session.authorization)
    .attach('csv', Buffer.isBuffer(content) ? content : Buffer.from(content), fileName);
}

/** Imports `content` and expects 204 with no body. */
export async function importOk(
  trove: TestApp,
  session: Session,
  content: string | Buffer,
): Promise<void> {
  const response = await importCsv(trove, session, content);
  expect(response.status, JSON.stringify(response.body)).toBe(204);
  expect(response.text).toBe('');
}

/** A CSV file from rows of cells (quoted where needed), lines ending in `\n`. */
export function csv(rows: string[][], delimiter = ','): string {
  const quote = (cell: string): string =>
    /[",\t\n\r]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
  return rows.map((row) => row.map(quote).join(delimiter)).join('\n') + '\n';
}

/** How many rows of each table an import writes the group has. */
export async function groupCounts(
  trove: TestApp,
  groupId: string,
): Promise<Record<'entities' | 'tags' | 'entityTags' | 'fields' | 'types', number>> {
  const [row] = await trove.query<Record<string, string>>(
    `SELECT
       (SELECT count(*) FROM entities WHERE group_id = $1) AS entities,
       (SELECT count(*) FROM tags WHERE group_id = $1) AS tags,
       (SELECT count(*) FROM entity_tags et JOIN entities e ON e.id = et.entity_id
         WHERE e.group_id = $1) AS "entityTags",
       (SELECT count(*) FROM entity_fields f JOIN entities e ON e.id = f.entity_id
         WHERE e.group_id = $1) AS fields,
       (SELECT count(*) FROM entity_types WHERE group_id = $1) AS types`,
    [groupId],
  );
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [key, Number(value)]),
  ) as Record<'entities' | 'tags' | 'entityTags' | 'fields' | 'types', number>;
}

/** The id of the group's entity with this import ref. */
export async function idByRef(trove: TestApp, groupId: string, ref: string): Promise<string> {
  const rows = await trove.query<{ id: string }>(
    'SELECT id FROM entities WHERE group_id = $1 AND import_ref = $2',
    [groupId, ref],
  );
  expect(rows).toHaveLength(1);
  return rows[0].id;
}

/** The group's entities of this name, with their parent's name and whether they are locations. */
export async function entitiesNamed(
  trove: TestApp,
  groupId: string,
  name: string,
): Promise<{ id: string; parent: string | null; isLocation: boolean; assetId: number }[]> {
  return trove.query(
    `SELECT e.id, p.name AS parent, t.is_location AS "isLocation", e.asset_id::int AS "assetId"
     FROM entities e JOIN entity_types t ON t.id = e.entity_type_id
     LEFT JOIN entities p ON p.id = e.parent_id
     WHERE e.group_id = $1 AND e.name = $2 ORDER BY e.created_at`,
    [groupId, name],
  );
}
