import { request as httpRequest } from 'node:http';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { runningHandlers } from '../../src/platform/http/trove-express-adapter.js';
import { useTestApp } from '../support/api.js';
import { signUp } from '../support/factories.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the route handlers running, as shutdown waits for them', () => {
  const app = useTestApp();

  it('counts nothing once every request has been answered', async () => {
    await app.trove.http.get('/api/v1/status').expect(200);
    expect(await runningHandlers(app.trove.app).settled(0)).toBe(0);
  });

  it('counts a create whose client has gone until it has stored the entity', async () => {
    const { trove } = app;
    const owner = await signUp(trove);
    const handlers = runningHandlers(trove.app);
    // Hold the group's row, which every create locks to take the next asset id.
    const blocker = new pg.Client({ connectionString: trove.database.url });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('SELECT id FROM groups WHERE id = $1 FOR UPDATE', [owner.groupId]);
      const body = JSON.stringify({ name: 'Sent before the client left' });
      const sent = httpRequest(`${trove.baseUrl}/api/v1/entities`, {
        method: 'POST',
        headers: {
          Authorization: owner.authorization,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
        },
      });
      const closed = new Promise<void>((resolve) => sent.once('close', () => resolve()));
      sent.once('error', () => undefined);
      sent.end(body);
      for (let waiting = 0; waiting < 1;) {
        await pause(50);
        const [row] = await trove.query<{ count: number }>(
          `SELECT count(*)::int AS count FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        waiting = row.count;
      }
      sent.destroy();
      await closed;
      await pause(100);
      expect(await handlers.settled(0)).toBe(1);

      await blocker.query('COMMIT');
      expect(await handlers.settled(10_000)).toBe(0);
    } finally {
      await blocker.end();
    }
    const stored = await trove.query<{ name: string }>(
      'SELECT name FROM entities WHERE group_id = $1 AND name = $2',
      [owner.groupId, 'Sent before the client left'],
    );
    expect(stored).toEqual([{ name: 'Sent before the client left' }]);
  });
});
