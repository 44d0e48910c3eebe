import type { Database } from './database.js';

/**
 * Takes the transaction-scoped advisory lock of `name` in the open unit of work: whoever takes
 * the same name next waits until that unit of work ends.
 */
export async function advisoryLock(db: Database, name: string): Promise<void> {
  if (!db.inTransaction) throw new Error(`the advisory lock ${name} needs a unit of work`);
  await db.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [name]);
}
