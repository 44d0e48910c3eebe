import type { Database } from './database.js';

/**
 * Takes the transaction-scoped advisory lock of `name` in the open unit of work until it ends:
 * exclusive, whoever takes the same name next waits; shared, only those who take it exclusive
 * wait (and it waits for them).
 */
export async function advisoryLock(
  db: Database,
  name: string,
  mode: 'exclusive' | 'shared' = 'exclusive',
): Promise<void> {
  if (!db.inTransaction) throw new Error(`the advisory lock ${name} needs a unit of work`);
  const take = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
  await db.query(`SELECT ${take}(hashtextextended($1, 0))`, [name]);
}
