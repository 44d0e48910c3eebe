import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_GOING_AWAY } from '../../src/web/change-feed/change-feed.gateway.js';
import { SHUTTING_DOWN_MESSAGE } from '../../src/web/health/health.controller.js';
import { openFeed } from '../events/feed.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import {
  startTroveProcess,
  type ProcessExit,
  type TroveProcess,
} from '../support/trove-process.js';

/** Clients of each style: a new connection per request, and one keep-alive connection each. */
const CLIENTS = 32;
/** TROVE_WEB_SHUTDOWN_DRAIN's default, which the process runs with. */
const DRAIN_MS = 1000;
const WARM_UP_MS = 3000;
/** Bounds each client's loop whatever happens. */
const MAX_REQUESTS_PER_CLIENT = 5000;

type Style = 'new connection' | 'keep-alive';

interface Sent {
  style: Style;
  /** `performance.now()` once the whole request was handed to the OS; undefined before. */
  writtenAt?: number;
  /** `performance.now()` once the complete response was read. */
  answeredAt?: number;
  status?: number;
  body?: string;
  connectionClose?: boolean;
  /** The error code (or message) the request failed with. */
  error?: string;
}

/**
 * One request, recording when it was written and how it ended. `agent: false` opens a new
 * connection for it alone (and asks the server to close it); a keep-alive agent reuses one.
 */
function send(
  baseUrl: string,
  style: Style,
  agent: http.Agent | false,
  method: string,
  route: string,
  headers: Record<string, string>,
  body?: unknown,
): { sent: Sent; done: Promise<void> } {
  const sent: Sent = { style };
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const done = new Promise<void>((resolve) => {
    const request = http.request(new URL(route, baseUrl), {
      method,
      agent,
      headers: { ...headers, ...(payload ? { 'Content-Type': 'application/json' } : {}) },
    });
    request.once('finish', () => (sent.writtenAt = performance.now()));
    request.once('error', (error: NodeJS.ErrnoException) => {
      sent.error ??= error.code ?? error.message;
      resolve();
    });
    request.once('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.once('aborted', () => (sent.error ??= 'response aborted'));
      response.once('error', (error: NodeJS.ErrnoException) => {
        sent.error ??= error.code ?? error.message;
        resolve();
      });
      response.once('end', () => {
        if (!response.complete) sent.error ??= 'incomplete response';
        sent.answeredAt = performance.now();
        sent.status = response.statusCode;
        sent.body = text;
        sent.connectionClose = response.headers.connection === 'close';
        resolve();
      });
    });
    request.end(payload);
  });
  return { sent, done };
}

async function call<T>(
  baseUrl: string,
  method: string,
  route: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const { sent, done } = send(baseUrl, 'new connection', false, method, route, headers, body);
  await done;
  if (sent.status === undefined) throw new Error(`${method} ${route}: ${sent.error}`);
  return { status: sent.status, body: JSON.parse(sent.body || 'null') as T };
}

/** A reset: the server closed a connection that carried this request before answering it. */
const isReset = (sent: Sent): boolean =>
  sent.error !== undefined && /ECONNRESET|socket hang up|EPIPE|aborted/i.test(sent.error);

describe('shutdown with a drain window', () => {
  let database: TestDatabase;
  let trove: TroveProcess;
  let authorization: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    // TROVE_WEB_SHUTDOWN_DRAIN is left at its default.
    trove = await startTroveProcess({
      env: { DATABASE_URL: database.url, TROVE_LOG_LEVEL: 'info' },
    });
    const email = `drain-${Date.now()}@example.com`;
    const password = 'correct horse battery';
    const registered = await call(
      trove.baseUrl,
      'POST',
      '/api/v1/users/register',
      {},
      {
        name: 'Drain',
        email,
        password,
      },
    );
    expect(registered.status).toBe(204);
    const login = await call<{ token: string }>(
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
  }, 240_000);

  afterAll(async () => {
    await trove?.dispose();
    await database?.drop();
  });

  it('on SIGTERM stops being ready, answers every request sent before it in both client styles, resets none, and exits 0 within drain + 2 s', async () => {
    expect((await call(trove.baseUrl, 'GET', '/api/v1/health/ready')).status).toBe(200);

    const all: Sent[] = [];
    const signalled: { at?: number } = {};
    let exit: ProcessExit | undefined;
    void trove.exited.then((value) => (exit = value));
    const headers = { Authorization: authorization };

    const client = async (style: Style, index: number): Promise<void> => {
      const agent =
        style === 'keep-alive' ? new http.Agent({ keepAlive: true, maxSockets: 1 }) : false;
      try {
        for (let i = 0; i < MAX_REQUESTS_PER_CLIENT && !exit; i++) {
          const { sent, done } =
            i % 2 === 0
              ? send(trove.baseUrl, style, agent, 'GET', '/api/v1/entities?pageSize=5', headers)
              : send(trove.baseUrl, style, agent, 'POST', '/api/v1/entities', headers, {
                  name: `${style} ${index}-${i}`,
                });
          all.push(sent);
          await done;
          // After the signal a refused or closed connection ends this client.
          if (sent.error && signalled.at !== undefined) break;
        }
      } finally {
        if (agent) agent.destroy();
      }
    };
    const clients = [
      ...Array.from({ length: CLIENTS }, (_, index) => client('new connection', index)),
      ...Array.from({ length: CLIENTS }, (_, index) => client('keep-alive', index)),
    ];
    // An open change-feed socket is closed cleanly (1001) at the signal.
    const feed = await openFeed(trove.baseUrl, { headers });

    await sleep(WARM_UP_MS);
    // Readiness is asked on a keep-alive connection, which stays open while idle in the window.
    const probeAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const readyBefore = send(
      trove.baseUrl,
      'keep-alive',
      probeAgent,
      'GET',
      '/api/v1/health/ready',
      {},
    );
    await readyBefore.done;
    expect(readyBefore.sent).toMatchObject({ status: 200, connectionClose: false });
    const signalAt = trove.signal('SIGTERM');
    signalled.at = signalAt;

    // Readiness, asked from when Trove says it is shutting down until it stops listening: first
    // on that idle connection, then on new ones (each answer closes its connection).
    while (!exit && !trove.logs.some((line) => line.msg.startsWith('shutting down'))) {
      await sleep(5);
    }
    // A request written from now on is read after the drain began.
    const drainingAt = performance.now();
    const probes: Sent[] = [];
    while (!exit) {
      const { sent, done } = send(
        trove.baseUrl,
        'keep-alive',
        probeAgent,
        'GET',
        '/api/v1/health/ready',
        {},
      );
      await done;
      probes.push(sent);
      if (sent.error) break;
      await sleep(50);
    }
    probeAgent.destroy();
    const exited = await trove.exited;
    await Promise.all(clients);

    const shutdownMs = exited.at - signalAt;
    const lastAnswerMs = Math.max(...all.map((sent) => (sent.answeredAt ?? signalAt) - signalAt));
    const beforeSignal = all.filter(
      (sent) => sent.writtenAt !== undefined && sent.writtenAt < signalAt,
    );
    const afterSignal = all.filter((sent) => !beforeSignal.includes(sent));
    const summary = (style: Style): string => {
      const before = beforeSignal.filter((sent) => sent.style === style);
      const after = afterSignal.filter((sent) => sent.style === style);
      const errors = new Map<string, number>();
      for (const sent of after.filter((one) => one.error)) {
        errors.set(sent.error!, (errors.get(sent.error!) ?? 0) + 1);
      }
      return (
        `${style}: ${before.length} sent before the signal ` +
        `(${before.filter((sent) => sent.answeredAt === undefined || sent.answeredAt > signalAt).length} in flight at it), ` +
        `${before.filter((sent) => sent.status !== undefined && !sent.error).length} answered, ` +
        `${before.filter(isReset).length} reset; ` +
        `${after.filter((sent) => sent.status !== undefined && !sent.error).length} answered after it ` +
        `(${after.filter((sent) => sent.connectionClose).length} with Connection: close), ` +
        `errors after it: ${JSON.stringify(Object.fromEntries(errors))}`
      );
    };
    console.info(
      `shutdown with a ${DRAIN_MS} ms drain: exit code ${exited.code} after ${shutdownMs.toFixed(0)} ms ` +
        `(last answer ${lastAnswerMs.toFixed(0)} ms after the signal)\n` +
        `  ${summary('new connection')}\n  ${summary('keep-alive')}\n` +
        `  readiness during the drain: ${probes.map((probe) => probe.status ?? probe.error).join(' ')}`,
    );

    expect(exited).toEqual({ code: 0, signal: null, at: expect.any(Number) });
    expect(trove.logs.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual([]);
    // The window was kept, and the whole shutdown stays within drain + 2 s, plus however much
    // longer than the window the slowest request took to be answered (none on an idle machine).
    expect(shutdownMs).toBeGreaterThanOrEqual(DRAIN_MS);
    expect(shutdownMs).toBeLessThan(Math.max(DRAIN_MS, lastAnswerMs) + 2000);

    for (const style of ['new connection', 'keep-alive'] as const) {
      const before = beforeSignal.filter((sent) => sent.style === style);
      // Both styles were under way at the signal.
      expect(
        before.some((sent) => sent.answeredAt === undefined || sent.answeredAt > signalAt),
      ).toBe(true);
      // Nothing sent before the signal was reset; each got its whole answer, none a 5xx.
      expect(before.filter(isReset).map((sent) => sent.error)).toEqual([]);
      expect(before.filter((sent) => sent.error !== undefined).map((sent) => sent.error)).toEqual(
        [],
      );
      expect(before.every((sent) => sent.status !== undefined && sent.status < 500)).toBe(true);
    }
    // What was answered during the window closed its connection, keep-alive or not.
    const answeredInWindow = all.filter(
      (sent) => sent.writtenAt! > drainingAt && sent.status !== undefined && !sent.error,
    );
    for (const sent of answeredInWindow) {
      expect(sent).toMatchObject({ connectionClose: true, status: expect.any(Number) });
      expect(sent.status).toBeLessThan(500);
    }

    // Not ready from the signal on, while still accepting connections and answering on them.
    const answeredProbes = probes.filter((probe) => probe.status !== undefined);
    expect(answeredProbes.length).toBeGreaterThan(0);
    for (const probe of answeredProbes) {
      expect(probe).toMatchObject({ status: 503, connectionClose: true });
      expect(JSON.parse(probe.body!)).toEqual({ error: SHUTTING_DOWN_MESSAGE });
    }

    expect((await feed.closed).code).toBe(CLOSE_GOING_AWAY);
  }, 60_000);
});
