import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedPostgres } from '../../src/platform/database/embedded-postgres.js';
import { CLOSE_GOING_AWAY } from '../../src/web/change-feed/change-feed.gateway.js';
import { openFeed } from '../events/feed.js';
import {
  startTroveProcess,
  type ProcessExit,
  type TroveProcess,
} from '../support/trove-process.js';

const CLIENTS = 32;
const WARM_UP_MS = 1500;
/** Bounds each client's loop whatever happens. */
const MAX_REQUESTS_PER_CLIENT = 5000;

interface Answer {
  status: number;
  body: string;
  connectionClose: boolean;
}

interface Sent {
  /** `performance.now()` once the whole request was handed to the OS; undefined before. */
  sentAt?: number;
  /** `performance.now()` once the complete response was read. */
  answeredAt?: number;
  answer?: Answer;
  error?: string;
}

/** One HTTP request on a given agent, recording when it was sent and how it ended. */
function send(
  baseUrl: string,
  agent: http.Agent,
  method: string,
  route: string,
  headers: Record<string, string>,
  body?: unknown,
): { sent: Sent; done: Promise<void> } {
  const sent: Sent = {};
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const done = new Promise<void>((resolve) => {
    const request = http.request(new URL(route, baseUrl), {
      method,
      agent,
      headers: {
        ...headers,
        ...(payload ? { 'Content-Type': 'application/json' } : {}),
      },
    });
    request.once('finish', () => (sent.sentAt = performance.now()));
    request.once('error', (error) => {
      sent.error = `${(error as NodeJS.ErrnoException).code ?? ''} ${error.message}`;
      resolve();
    });
    request.once('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.once('aborted', () => (sent.error = 'response aborted'));
      response.once('error', (error) => (sent.error = `response error ${error.message}`));
      response.once('end', () => {
        if (!response.complete) sent.error ??= 'incomplete response';
        sent.answeredAt = performance.now();
        sent.answer = {
          status: response.statusCode ?? 0,
          body: text,
          connectionClose: response.headers.connection === 'close',
        };
        resolve();
      });
    });
    request.end(payload);
  });
  return { sent, done };
}

async function json<T>(
  baseUrl: string,
  method: string,
  route: string,
  headers = {},
  body?: unknown,
) {
  const agent = new http.Agent();
  const { sent, done } = send(baseUrl, agent, method, route, headers, body);
  await done;
  agent.destroy();
  if (!sent.answer) throw new Error(`${method} ${route}: ${sent.error}`);
  return { status: sent.answer.status, body: JSON.parse(sent.answer.body || 'null') as T };
}

describe('shutdown under keep-alive load', () => {
  let dataDir: string;
  let trove: TroveProcess;
  let authorization: string;
  const email = `shutdown-${Date.now()}@example.com`;
  const password = 'correct horse battery';

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'trove-shutdown-'));
    // A first start creates the cluster, the database and the schema, which leaves the first
    // shutdown checkpoint far more to write than a running installation has; the load test
    // runs on the second start, as after any restart.
    const fresh = await startTroveProcess({ dataDir });
    try {
      const registered = await json(
        fresh.baseUrl,
        'POST',
        '/api/v1/users/register',
        {},
        {
          name: 'Load',
          email,
          password,
        },
      );
      expect(registered.status).toBe(204);
      fresh.signal('SIGTERM');
      expect((await fresh.exited).code).toBe(0);
    } finally {
      await fresh.dispose();
    }

    trove = await startTroveProcess({ dataDir });
    // The first stop was clean too: this start needed no recovery.
    expect(trove.logs.map((line) => line.msg)).toContainEqual(
      expect.stringContaining('database system was shut down at'),
    );
    const login = await json<{ token: string }>(
      trove.baseUrl,
      'POST',
      '/api/v1/users/login',
      {},
      {
        username: email,
        password,
      },
    );
    expect(login.status).toBe(200);
    authorization = login.body.token;
  }, 360_000);

  afterAll(async () => {
    await trove?.dispose();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('stops at once on SIGTERM: answers every request sent before it, exits 0, stops the database cleanly', async () => {
    const all: Sent[] = [];
    const signalled: { at?: number } = {};
    let exit: ProcessExit | undefined;
    void trove.exited.then((value) => (exit = value));

    const client = async (index: number): Promise<void> => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const headers = { Authorization: authorization };
      try {
        for (let i = 0; i < MAX_REQUESTS_PER_CLIENT && !exit; i++) {
          const { sent, done } =
            i % 2 === 0
              ? send(trove.baseUrl, agent, 'GET', '/api/v1/entities?pageSize=5', headers)
              : send(trove.baseUrl, agent, 'POST', '/api/v1/entities', headers, {
                  name: `load ${index}-${i}`,
                });
          all.push(sent);
          await done;
          // After the signal a refused or closed connection ends this client.
          if (sent.error && signalled.at !== undefined) break;
        }
      } finally {
        agent.destroy();
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, index) => client(index));

    // An open change-feed socket does not hold the shutdown up: it is closed with 1001.
    const feed = await openFeed(trove.baseUrl, { headers: { Authorization: authorization } });

    await sleep(WARM_UP_MS);
    // Creates whose clients go away as soon as they are sent: they still run to their end.
    for (let k = 0; k < 16; k++) {
      const request = http.request(new URL('/api/v1/entities', trove.baseUrl), {
        method: 'POST',
        headers: { Authorization: authorization, 'Content-Type': 'application/json' },
      });
      request.once('error', () => undefined);
      request.end(JSON.stringify({ name: `abandoned ${k}` }), () => request.destroy());
    }
    const signalAt = trove.signal('SIGTERM');
    signalled.at = signalAt;
    const exited = await trove.exited;
    await Promise.all(clients);

    const beforeSignal = all.filter((sent) => sent.sentAt !== undefined && sent.sentAt < signalAt);
    const inFlightAtSignal = beforeSignal.filter(
      (sent) => sent.answeredAt === undefined || sent.answeredAt > signalAt,
    );
    const failed = beforeSignal.filter((sent) => sent.error !== undefined || !sent.answer);
    const shutdownMs = exited.at - signalAt;
    console.info(
      `shutdown under load: exit code ${exited.code} after ${shutdownMs.toFixed(0)} ms; ` +
        `${beforeSignal.length} requests sent before the signal, ${inFlightAtSignal.length} in ` +
        `flight at the signal, ${failed.length} failed; ${all.length - beforeSignal.length} sent after`,
    );

    const stopped = trove.logs.find((line) => line.msg === 'stopped');
    const drained = trove.logs.find((line) => typeof line.drainMs === 'number');
    console.info(
      `inside Trove: requests drained after ${String(drained?.drainMs)} ms, ` +
        `stopped (app and database) after ${String(stopped?.shutdownMs)} ms`,
    );

    expect(exited).toEqual({ code: 0, signal: null, at: expect.any(Number) });
    // Nothing failed inside either, not even for the clients that went away.
    expect(trove.logs.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual([]);
    // Soon after the drain window (TROVE_WEB_SHUTDOWN_DRAIN, 1 s): well before Node's keep-alive
    // timeout (5 s) after it, which would hold the server up if idle keep-alive sockets were left
    // to time out, and the limit for running requests (8 s).
    expect(shutdownMs).toBeLessThan(4000);
    expect((await feed.closed).code).toBe(CLOSE_GOING_AWAY);
    expect(failed.map((sent) => sent.error)).toEqual([]);
    expect(inFlightAtSignal.length).toBeGreaterThan(0);
    expect(beforeSignal.every((sent) => sent.answer!.status < 500)).toBe(true);
    // In-flight requests are answered with `Connection: close`, so their sockets end with them.
    expect(beforeSignal.some((sent) => sent.answer!.connectionClose)).toBe(true);

    // The embedded PostgreSQL was stopped, not killed: it said so, and left no lock file.
    expect(trove.logs.map((line) => line.msg)).toContainEqual(
      expect.stringContaining('database system is shut down'),
    );
    expect(existsSync(path.join(trove.dataDir, 'postgres', 'postmaster.pid'))).toBe(false);

    // The next start finds a cleanly shut down cluster: no crash recovery.
    const restartLog: string[] = [];
    const database = await EmbeddedPostgres.start({
      dataDir: trove.dataDir,
      port: 0,
      log: (line) => restartLog.push(line),
    });
    await database.stop();
    expect(restartLog).toContainEqual(expect.stringContaining('database system was shut down at'));
    expect(restartLog.filter((line) => /not properly shut down|recovery/.test(line))).toEqual([]);
  }, 60_000);
});
