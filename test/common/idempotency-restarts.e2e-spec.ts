import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Session } from '../support/factories.js';
import { createAppOnExternalServer, type ExternalServerApp } from '../support/own-server-app.js';

const KEY = 'Idempotency-Key';
const RESTARTS = 3;
const CLIENTS = 8;

/** What the clients saw, over every attempt of every create. */
interface Tally {
  keys: number;
  attempts: number;
  created: number;
  replayed: number;
  unavailable: number;
  inProgress: number;
  /** Requests that got no HTTP answer at all. */
  noAnswer: number;
  /** Any other status: a failure of the test. */
  unexpected: string[];
}

/**
 * The acceptance measure: clients create without pause, each with a key of its own, and retry
 * every failed create with that key, while PostgreSQL is restarted three times. Before each
 * restart the proxy between Trove and PostgreSQL cuts one create's connection right after its
 * COMMIT was answered, so each outage holds at least one change whose answer was lost.
 */
describe('a client retrying every failed create with its key through PostgreSQL restarts', () => {
  let trove: ExternalServerApp;
  let owner: Session;

  beforeAll(async () => {
    trove = await createAppOnExternalServer({ proxied: true });
    owner = await signUp(trove, { name: 'Ada' });
  });
  afterAll(() => trove?.close());

  it('ends with exactly one entity per key', async () => {
    const proxy = trove.proxy!;
    const tally: Tally = {
      keys: 0,
      attempts: 0,
      created: 0,
      replayed: 0,
      unavailable: 0,
      inProgress: 0,
      noAnswer: 0,
      unexpected: [],
    };
    const names: string[] = [];
    let restarting = true;

    /** Creates one entity with its key, retrying every failure until it is answered 201. */
    const createWithRetries = async (name: string): Promise<void> => {
      const key = randomUUID();
      for (;;) {
        tally.attempts += 1;
        const response = await trove.http
          .post('/api/v1/entities')
          .set('Authorization', owner.authorization)
          .set(KEY, key)
          .send({ name })
          .catch(() => undefined);
        if (response === undefined) tally.noAnswer += 1;
        else if (response.status === 201) {
          tally.created += 1;
          if (response.headers['idempotent-replayed'] === 'true') tally.replayed += 1;
          expect(response.body.name).toBe(name);
          return;
        } else if (response.status === 503) tally.unavailable += 1;
        else if (response.status === 409) tally.inProgress += 1;
        else tally.unexpected.push(`${response.status} ${response.text}`);
        await sleep(50);
      }
    };

    const client = async (index: number): Promise<void> => {
      for (let n = 0; restarting || n < 5; n++) {
        const name = `Client ${index} create ${n}`;
        names.push(name);
        tally.keys += 1;
        await createWithRetries(name);
      }
    };

    const restarts = async (): Promise<void> => {
      for (let restart = 0; restart < RESTARTS; restart++) {
        await sleep(500);
        const cut = proxy.cutCommits;
        proxy.cutCommitAfter = 'INSERT INTO idempotency_keys';
        while (proxy.cutCommits === cut) await sleep(5);
        await trove.stopServer();
        await sleep(500);
        await trove.startServer();
      }
      restarting = false;
    };

    await Promise.all([restarts(), ...Array.from({ length: CLIENTS }, (_, i) => client(i))]);

    const rows = await trove.query<{ name: string; count: number }>(
      'SELECT name, count(*)::int AS count FROM entities WHERE name = ANY($1) GROUP BY name',
      [names],
    );
    const counts = new Map(rows.map((row) => [row.name, row.count]));
    const notOne = names.filter((name) => counts.get(name) !== 1);
    const keyRows = await trove.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM idempotency_keys WHERE response_status = 201',
    );
    console.info(
      `${RESTARTS} restarts, ${proxy.cutCommits} answers cut after commit: ` +
        `${JSON.stringify({ ...tally, entities: rows.length, notOne: notOne.length })}`,
    );

    expect(tally.unexpected).toEqual([]);
    expect(proxy.cutCommits).toBe(RESTARTS);
    expect(tally.keys).toBe(names.length);
    expect(tally.created).toBe(names.length);
    expect(notOne).toEqual([]);
    expect(rows).toHaveLength(names.length);
    expect(keyRows).toEqual([{ count: names.length }]);
    // Each cut answer was a committed create whose retry got the stored answer again.
    expect(tally.replayed).toBeGreaterThanOrEqual(RESTARTS);
    expect(tally.unavailable).toBeGreaterThanOrEqual(RESTARTS);
  }, 180_000);
});
