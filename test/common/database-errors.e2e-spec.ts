import { describe, expect, it } from 'vitest';
import { useSharedApp } from '../support/api.js';

/**
 * Creating an entity runs as a prepared statement on pg's pool, whose errors are pg's own
 * DatabaseError rather than TypeORM's QueryFailedError. Constraints added to this test's
 * database make PostgreSQL refuse chosen names, so each kind of error comes from that path.
 */
describe('database errors of prepared statements', () => {
  const t = useSharedApp(async ({ trove }) => {
    await trove.query(
      `CREATE UNIQUE INDEX test_entities_twin_key ON entities (group_id, name) WHERE name = 'Twin'`,
    );
    await trove.query(
      `ALTER TABLE entities ADD CONSTRAINT test_entities_name_check CHECK (name <> 'Forbidden')`,
    );
    // 'Divide' has six characters: PostgreSQL divides by zero (SQLSTATE 22012) checking it.
    await trove.query(
      `ALTER TABLE entities ADD CONSTRAINT test_entities_divide_check
         CHECK (name <> 'Divide' OR 1 / (length(name) - 6) = 0)`,
    );
  });

  const create = (name: string) =>
    t.trove.http
      .post('/api/v1/entities')
      .set('Authorization', t.owner.authorization)
      .send({ name });

  it('answers a unique violation with 409', async () => {
    await create('Twin').expect(201);
    await create('Twin').expect(409, {
      error: 'a record with the same unique values already exists (test_entities_twin_key)',
    });
  });

  it('answers a check violation with 422', async () => {
    await create('Forbidden').expect(422, {
      error: 'a value is out of range or not allowed (test_entities_name_check)',
    });
  });

  it('answers any other data exception with 400', async () => {
    await create('Divide').expect(400, { error: 'a value is invalid' });
  });

  it('wrote nothing for the refused requests', async () => {
    const rows = await t.trove.query<{ name: string }>(
      `SELECT name FROM entities WHERE group_id = $1 AND name IN ('Twin', 'Forbidden', 'Divide')`,
      [t.owner.groupId],
    );
    expect(rows).toEqual([{ name: 'Twin' }]);
  });
});
