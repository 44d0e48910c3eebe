import pg from 'pg';

/** How many tables the database at `url` has in its `public` schema (0: nothing restored). */
export async function tableCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ count: string }>(
      `SELECT count(*)::text AS count FROM information_schema.tables WHERE table_schema = 'public'`,
    );
    return Number(result.rows[0].count);
  } finally {
    await client.end();
  }
}
