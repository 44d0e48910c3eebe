import { rename } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EXIT_DATABASE_LOST,
  exitWhenDatabaseLost,
} from '../../src/platform/database/database-server.js';
import { signUp, type Session } from '../support/factories.js';
import {
  createAppOnEmbeddedServer,
  LOG_LEVEL,
  type EmbeddedServerApp,
} from '../support/own-server-app.js';

const WORKERS = 8;
/** Acknowledged writes each phase (before the kill, after the restart) waits for. */
const WRITES_PER_PHASE = 100;
/** Room for a busy machine; the load test's own pace is a few seconds. */
const LOAD_TEST_TIMEOUT_MS = 120_000;

interface Acknowledged {
  table: 'tags' | 'entities';
  id: string;
}

describe('the embedded PostgreSQL killed under write load', () => {
  let trove: EmbeddedServerApp;
  let owner: Session;

  beforeAll(async () => {
    trove = await createAppOnEmbeddedServer();
    owner = await signUp(trove, { name: 'Ada' });
  });
  afterAll(() => trove.close());

  it(
    'is restarted: 503 meanwhile, never 500, writes resume, and no acknowledged write is lost',
    async () => {
      const acknowledged: Acknowledged[] = [];
      const statuses = new Map<number, number>();
      const unexpected: string[] = [];
      let phase: 'before' | 'outage' | 'after' = 'before';
      let afterRestart = 0;

      const write = async (worker: number, n: number): Promise<void> => {
        const table = n % 2 === 0 ? 'tags' : 'entities';
        const response = await trove.http
          .post(`/api/v1/${table}`)
          .set('Authorization', owner.authorization)
          .send({ name: `w${worker}-${n}` });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status === 201) {
          acknowledged.push({ table, id: (response.body as { id: string }).id });
          if (phase === 'after') afterRestart++;
        } else if (
          response.status !== 503 ||
          response.headers['retry-after'] !== '5' ||
          JSON.stringify(response.body) !== '{"error":"database unavailable"}'
        ) {
          unexpected.push(`${response.status} ${JSON.stringify(response.body)}`);
        }
      };
      const worker = async (id: number): Promise<void> => {
        for (let n = 0; phase !== 'after' || afterRestart < WRITES_PER_PHASE; n++) {
          await write(id, n);
          if (phase === 'outage') await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      const load = Promise.all(Array.from({ length: WORKERS }, (_, id) => worker(id)));

      while (acknowledged.length < WRITES_PER_PHASE) await new Promise((r) => setTimeout(r, 20));
      const killedPid = trove.server.pid!;
      expect(killedPid).toEqual(expect.any(Number));
      phase = 'outage';
      const killedAt = performance.now();
      process.kill(killedPid, 'SIGKILL');

      // Readiness follows the database: down first, then back once the server was restarted. A
      // backend may still answer in the instant before it notices its postmaster is gone, so
      // "down" is waited for (the restart itself waits 500 ms before it begins).
      let readiness = await trove.http.get('/api/v1/health/ready');
      while (readiness.status === 200 && performance.now() - killedAt < 5_000) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        readiness = await trove.http.get('/api/v1/health/ready');
      }
      expect(readiness.status).toBe(503);
      while (readiness.status !== 200) {
        expect(readiness.status).toBe(503);
        await new Promise((resolve) => setTimeout(resolve, 100));
        readiness = await trove.http.get('/api/v1/health/ready');
      }
      const backAfterMs = performance.now() - killedAt;
      phase = 'after';
      await load;

      const errors = trove.logLines.filter((line) => line.level >= LOG_LEVEL.error);
      expect(unexpected, JSON.stringify(errors)).toEqual([]);
      expect(statuses.get(503)).toBeGreaterThan(0);
      expect(trove.server.pid).toEqual(expect.any(Number));
      expect(trove.server.pid).not.toBe(killedPid);
      expect(trove.server.failure).toBeUndefined();
      await trove.http.get('/api/v1/health/live').expect(200, { status: 'ok' });

      for (const table of ['tags', 'entities'] as const) {
        const ids = acknowledged.filter((write) => write.table === table).map((write) => write.id);
        const stored = await trove.query<{ id: string }>(
          `SELECT id FROM ${table} WHERE id = ANY($1::uuid[])`,
          [ids],
        );
        expect(stored.map((row) => row.id).sort()).toEqual([...ids].sort());
      }

      const lines = trove.logLines;
      expect(lines.filter((line) => line.msg.startsWith('unhandled error'))).toEqual([]);
      expect(
        lines.filter((line) => line.msg.startsWith('embedded PostgreSQL exited unexpectedly')),
      ).toHaveLength(1);
      expect(
        lines.filter((line) => line.msg.startsWith('embedded PostgreSQL restarted after')),
      ).toHaveLength(1);
      expect(
        lines.filter(
          (line) => line.level === LOG_LEVEL.warn && line.msg.startsWith('database unavailable'),
        ),
      ).toHaveLength(1);

      console.log(
        `embedded PostgreSQL answered again ${(backAfterMs / 1000).toFixed(1)} s after SIGKILL; ` +
          `${acknowledged.length} acknowledged writes checked, all present ` +
          `(statuses: ${JSON.stringify(Object.fromEntries(statuses))})`,
      );
    },
    LOAD_TEST_TIMEOUT_MS,
  );
});

describe('the embedded PostgreSQL killed when it cannot be restarted', () => {
  let trove: EmbeddedServerApp;
  let owner: Session;

  beforeAll(async () => {
    trove = await createAppOnEmbeddedServer({ restartDelaysMs: [100, 200, 300] });
    owner = await signUp(trove, { name: 'Ada' });
  });
  afterAll(() => trove.close());

  it('reports the failure, fails liveness, keeps answering 503, and has Trove exit', async () => {
    await trove.http.get('/api/v1/health/live').expect(200, { status: 'ok' });
    // What main.ts does, with the process's exit replaced by a note of the status.
    const exits: number[] = [];
    exitWhenDatabaseLost(trove.server, trove.logger, (code) => exits.push(code));
    const failed = new Promise<Error>((resolve) => trove.server.onFailure(resolve));
    // A cluster without PG_VERSION is no data directory PostgreSQL will start on.
    const cluster = path.join(trove.config.dataDir, 'postgres');
    await rename(path.join(cluster, 'PG_VERSION'), path.join(cluster, 'PG_VERSION.moved'));
    process.kill(trove.server.pid!, 'SIGKILL');

    const failure = await failed;
    expect(failure.message).toMatch(
      /^the embedded PostgreSQL exited unexpectedly \(code null, signal SIGKILL\) and 3 restarts failed; last error: embedded PostgreSQL exited during start-up .*PG_VERSION/s,
    );
    expect(trove.server.failure).toBe(failure);
    expect(exits).toEqual([EXIT_DATABASE_LOST]);
    expect(EXIT_DATABASE_LOST).toBe(69);
    expect(
      trove.logLines
        .filter((line) => line.level === LOG_LEVEL.fatal)
        .map((line) => [line.msg, (line.err as { message: string }).message]),
    ).toEqual([['the embedded PostgreSQL is down for good; Trove exits', failure.message]]);
    expect(trove.server.pid).toBeUndefined();

    await trove.http
      .get('/api/v1/health/live')
      .expect(503, { error: 'the embedded database stopped and could not be restarted' });
    await trove.http
      .get('/api/v1/health/ready')
      .expect(503, { error: 'database is not reachable' });
    const write = await trove.http
      .post('/api/v1/tags')
      .set('Authorization', owner.authorization)
      .send({ name: 'Lost' });
    expect(write.status).toBe(503);
    expect(write.body).toEqual({ error: 'database unavailable' });

    const reported = trove.logLines.filter((line) => line.level === LOG_LEVEL.error);
    expect(reported.map((line) => line.msg)).toContain(failure.message);
    expect(
      trove.logLines.filter((line) => line.msg.startsWith('restart ')).map((line) => line.msg),
    ).toEqual([
      expect.stringMatching(/^restart 1 of 3 of the embedded PostgreSQL failed: /),
      expect.stringMatching(/^restart 2 of 3 of the embedded PostgreSQL failed: /),
      expect.stringMatching(/^restart 3 of 3 of the embedded PostgreSQL failed: /),
    ]);
  });
});
