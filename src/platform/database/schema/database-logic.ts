/**
 * What PostgreSQL does on its own for one module, as the database holds it now: the tables it
 * maintains (written by nothing but the triggers defined beside them), and the functions and
 * triggers that write them or announce changes. Each module defines its own in one file per
 * table it keeps (`<table>.schema.ts`, beside its repository), and `src/database-logic.ts` lists
 * them all.
 *
 * The migrations are what creates and changes them: a change to a definition here is made by a new
 * migration holding a frozen copy of the new statements. `test/database/database-logic.e2e-spec.ts`
 * applies every definition to a migrated database and checks that the catalog stays exactly as the
 * migrations left it, and that no function or trigger is defined anywhere else.
 */
export interface DatabaseLogic {
  /** The tables it maintains; none for logic that writes no table of its own. */
  readonly tables: readonly string[];
  /**
   * The statements that create it as it is now, in an order that can run: tables with their
   * constraints and indexes, then functions (as `pg_get_functiondef` writes them), then triggers
   * (as `pg_get_triggerdef` writes them).
   */
  readonly statements: readonly string[];
}

/** The triggers a definition creates, with the tables they are on. */
export function triggersOf(logic: DatabaseLogic): { name: string; table: string }[] {
  const triggers: { name: string; table: string }[] = [];
  for (const statement of logic.statements) {
    const match = /^CREATE TRIGGER (\w+) .*? ON (?:public\.)?(\w+) /s.exec(statement);
    if (match) triggers.push({ name: match[1], table: match[2] });
  }
  return triggers;
}
