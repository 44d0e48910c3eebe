import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DatabaseNotifications } from '../../src/platform/database/database-notifications.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

const until = async (condition: () => boolean): Promise<void> => {
  for (let i = 0; i < 400 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe('DatabaseNotifications', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ empty: true });
  });
  afterAll(() => database.drop());

  it('listens on channels asked for at once, one statement at a time on its connection', async () => {
    // Statements sent on a client while an earlier one of the same client has not completed.
    const overlapping: string[] = [];
    const running = new WeakMap<pg.Client, number>();
    const query = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;
    function counted(this: pg.Client, ...args: unknown[]): unknown {
      const active = running.get(this) ?? 0;
      if (active > 0) overlapping.push(String(args[0]));
      running.set(this, active + 1);
      const result = query.apply(this, args);
      const done = (): void => void running.set(this, (running.get(this) ?? 1) - 1);
      if (result instanceof Promise) result.then(done, done);
      else done();
      return result;
    }
    const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(counted);
    const notifications = new DatabaseNotifications(database.url);
    const received: string[] = [];
    try {
      notifications.listen('trove_test_first', (payload) => received.push(`first ${payload}`));
      notifications.listen('trove_test_second', (payload) => received.push(`second ${payload}`));
      await notifications.ready();
      await until(
        () =>
          notifications.isSubscribed('trove_test_first') &&
          notifications.isSubscribed('trove_test_second'),
      );
      notifications.listen('trove_test_third', (payload) => received.push(`third ${payload}`));
      await until(() => notifications.isSubscribed('trove_test_third'));

      const sender = new pg.Client({ connectionString: database.url });
      await sender.connect();
      try {
        await sender.query(
          `SELECT pg_notify('trove_test_first', 'a'), pg_notify('trove_test_second', 'b'),
                  pg_notify('trove_test_third', 'c')`,
        );
      } finally {
        await sender.end();
      }
      await until(() => received.length === 3);
    } finally {
      await notifications.onApplicationShutdown();
      spy.mockRestore();
    }

    expect(received.sort()).toEqual(['first a', 'second b', 'third c']);
    expect(overlapping).toEqual([]);
  });
});
