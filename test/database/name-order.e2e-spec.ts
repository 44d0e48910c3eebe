import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useSharedApp } from '../support/api.js';
import { EmbeddedPostgres } from '../../src/platform/database/embedded-postgres.js';
import { compareByName, nameOrder } from '../../src/platform/database/name-order.js';

const NAMES = [
  'apple',
  'Apple',
  'APPLE',
  'Äpfel',
  'äpfel',
  'apfel',
  'Zebra',
  'zebra',
  'Éclair',
  'eclair',
  'Box 10',
  'Box 2',
  'box 1',
  '10 nails',
  '2 nails',
  'Ωmega',
  'ωmega',
  '😀 smile',
  '\uFFFD mark',
  'straße',
  'STRASSE',
  'Ångström',
  'angstrom',
  '_under',
  '~tilde',
  ' space',
  'a',
  'B',
];

/** The names as `nameOrder` sorts them on a server (each with a fixed id, so ties resolve alike). */
async function sortedOnServer(
  url: string,
  rows: { id: string; name: string }[],
): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ name: string }>(
      `SELECT n.name FROM unnest($1::uuid[], $2::text[]) AS n(id, name) ORDER BY ${nameOrder('n')}`,
      [rows.map((row) => row.id), rows.map((row) => row.name)],
    );
    return result.rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

describe('one ordering rule for names', () => {
  const rows = NAMES.map((name) => ({ id: randomUUID(), name }));
  const expected = [...rows].sort(compareByName).map((row) => row.name);

  const t = useSharedApp();

  it('orders alike in SQL on this run’s server and in TypeScript', async () => {
    expect(await sortedOnServer(t.trove.database.url, rows)).toEqual(expected);
  });

  it('orders alike on the embedded server, whatever server the run uses', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'trove-order-'));
    const server = await EmbeddedPostgres.start({ dataDir, port: 0, log: () => undefined });
    try {
      expect(await sortedOnServer(server.url, rows)).toEqual(expected);
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('lists tags in that order', async () => {
    for (const name of NAMES.filter((name) => name.trim() === name)) {
      await t.trove.http
        .post('/api/v1/tags')
        .set('Authorization', t.owner.authorization)
        .send({ name })
        .expect(201);
    }
    const response = await t.trove.http
      .get('/api/v1/tags')
      .set('Authorization', t.owner.authorization)
      .expect(200);
    const tags = response.body as { id: string; name: string }[];
    expect(tags.map((tag) => tag.name)).toEqual(
      [...tags].sort(compareByName).map((tag) => tag.name),
    );
    expect(tags.map((tag) => tag.name)).toEqual(
      expect.arrayContaining(NAMES.filter((name) => name.trim() === name)),
    );
  });

  it('is case-insensitive for A to Z, then by code point', () => {
    const order = (names: string[]): string[] =>
      names
        .map((name, index) => ({ name, id: String(index) }))
        .sort(compareByName)
        .map((row) => row.name);
    expect(order(['b', 'B', 'a', 'A'])).toEqual(['A', 'a', 'B', 'b']);
    expect(order(['😀', '\uFFFD'])).toEqual(['\uFFFD', '😀']);
  });
});
