import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import jwt from 'jsonwebtoken';
import pg from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionRepository } from '../../src/identity/auth/session.repository.js';
import { SessionsService, TOKEN_ISSUER } from '../../src/identity/auth/sessions.service.js';
import { CREDENTIALS_CHANNEL } from '../../src/identity/auth/verified-credentials.js';
import { sha256 } from '../../src/identity/auth/sha256.js';
import {
  DatabaseNotifications,
  NOTIFICATIONS_APPLICATION_NAME,
} from '../../src/platform/database/database-notifications.js';
import { signIn, signUp, signUpMember, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * Records the statements each request marked `X-Statement-Log: <id>` sends to PostgreSQL through
 * the app's pool: every pool client is observed as it is checked out, and a statement belongs to
 * the request in whose asynchronous context it is sent.
 */
function observeStatements(trove: TestApp): {
  log: Map<string, string[]>;
  stop: () => void;
} {
  const log = new Map<string, string[]>();
  const context = new AsyncLocalStorage<string[]>();
  const pool = (trove.app.get(DataSource).driver as PostgresDriver).master as pg.Pool;
  const observed = new WeakSet<pg.PoolClient>();
  const observe = (client: pg.PoolClient): void => {
    if (observed.has(client)) return;
    observed.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const statement = args[0] as string | { text: string };
      context.getStore()?.push(typeof statement === 'string' ? statement : statement.text);
      return query(...args);
    };
  };
  pool.on('acquire', observe);
  const server: Server = trove.app.getHttpServer();
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  const marked: RequestListener = (request, response) => {
    const id = request.headers['x-statement-log'];
    const forward = () => {
      for (const listener of listeners) listener.call(server, request, response);
    };
    if (typeof id !== 'string') return forward();
    const statements: string[] = [];
    log.set(id, statements);
    context.run(statements, forward);
  };
  server.on('request', marked);
  return {
    log,
    stop: () => {
      pool.off('acquire', observe);
      server.off('request', marked);
      for (const listener of listeners) server.on('request', listener);
    },
  };
}

const waitUntil = async (condition: () => boolean | Promise<boolean>): Promise<void> => {
  for (let attempt = 0; !(await condition()); attempt += 1) {
    if (attempt > 500) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/** PIDs of the database's listening connections. */
async function listenerPids(trove: TestApp): Promise<number[]> {
  const rows = await trove.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
    [NOTIFICATIONS_APPLICATION_NAME],
  );
  return rows.map((row) => row.pid).sort();
}

const subscribed = (trove: TestApp): boolean =>
  trove.app.get(DatabaseNotifications).isSubscribed(CREDENTIALS_CHANNEL);

/**
 * Two instances on one database, A and B, in this process: revocations are made through A and
 * must reach B's cache through the database. B is created last because passport keeps one
 * strategy per name and process, so B's is the one that checks session tokens, on A as well;
 * what A writes (the revocation) is A's own, and B learns of it only by notification.
 */
describe('verified credentials cached by each instance', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let listenerOfB: number;
  const noticesOfB: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    a = await createTestApp({}, { database });
    await waitUntil(() => subscribed(a));
    await waitUntil(async () => (await listenerPids(a)).length === 1);
    const [listenerOfA] = await listenerPids(a);
    b = await createTestApp({}, { database });
    await waitUntil(() => subscribed(b));
    await waitUntil(async () => (await listenerPids(a)).length === 2);
    listenerOfB = (await listenerPids(a)).find((pid) => pid !== listenerOfA)!;
    // Called after the cache's own handler, registered when B started.
    b.app
      .get(DatabaseNotifications)
      .listen(CREDENTIALS_CHANNEL, (userId) => noticesOfB.push(userId));
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await database?.drop();
  });

  /** Creates an entity in the user's group through A. */
  const createEntity = async (user: Session): Promise<string> => {
    const created = await a.http
      .post('/api/v1/entities')
      .set('Authorization', user.authorization)
      .send({ name: 'Cordless drill' })
      .expect(201);
    return (created.body as { id: string }).id;
  };

  /**
   * Makes a revocation through A and waits until B has received the notices naming the users:
   * a notice reaches B asynchronously, a moment after the revoking transaction commits.
   */
  const revoke = async (revocation: PromiseLike<unknown>, ...userIds: string[]): Promise<void> => {
    const from = noticesOfB.length;
    await revocation;
    await waitUntil(() => userIds.every((id) => noticesOfB.slice(from).includes(id)));
  };

  /** Statements each of B's requests sent, while `work` runs. */
  const statementsOfB = async (work: () => Promise<void>): Promise<string[][]> => {
    const observer = observeStatements(b);
    try {
      await work();
      return [...observer.log.values()];
    } finally {
      observer.stop();
    }
  };

  /**
   * Reads `path` on B until the credential's check is cached there: the read then sends one
   * statement, its own (so a revocation must evict the answer to be seen).
   */
  const warm = async (authorization: string, path: string, tenant?: string): Promise<void> => {
    const read = (log?: string) => {
      const request = b.http.get(path).set('Authorization', authorization);
      if (tenant) request.set('X-Tenant', tenant);
      if (log) request.set('X-Statement-Log', log);
      return request.expect(200);
    };
    await read();
    const [statements] = await statementsOfB(async () => {
      await read('warm');
    });
    expect(statements).toHaveLength(1);
    expect(statements[0]).not.toMatch(/auth_tokens|api_keys/);
  };

  it('answers a warm authenticated entity read with exactly one statement', async () => {
    const owner = await signUp(a, { name: 'Ada' });
    const id = await createEntity(owner);
    const key = await a.http
      .post('/api/v1/users/self/api-keys')
      .set('Authorization', owner.authorization)
      .send({ name: 'script' })
      .expect(201);
    const apiKey = (key.body as { token: string }).token;
    const count = (authorization: string): Promise<string[][]> =>
      statementsOfB(async () => {
        for (let request = 0; request < 6; request += 1) {
          const response = await b.http
            .get(`/api/v1/entities/${id}`)
            .set('Authorization', authorization)
            .set('X-Statement-Log', String(request))
            .expect(200);
          expect(response.body).toMatchObject({ id, name: 'Cordless drill' });
        }
      });
    // A token and a key not used yet, so the first request finds nothing cached.
    const fresh = await signIn(a, owner.email, owner.password);
    // The API-key pepper and the token signing key are loaded once per instance: by an unknown key
    // and another session's token, before counting.
    await b.http.get(`/api/v1/entities/${id}`).set('Authorization', 'trove_unknown').expect(401);
    await b.http
      .get(`/api/v1/entities/${id}`)
      .set('Authorization', owner.authorization)
      .expect(200);
    for (const [credential, check] of [
      [fresh.authorization, /FROM auth_tokens/],
      [apiKey, /FROM api_keys/],
    ] as const) {
      const [cold, ...warm] = await count(credential);
      // The first request checks the credential with statements of its own (an API key's use is
      // also recorded), then reads.
      expect(cold[0]).toMatch(check);
      expect(cold.length).toBe(credential === apiKey ? 3 : 2);
      const view = cold.at(-1);
      // Once verified, each request is the entity's statement alone.
      expect(warm).toEqual([[view], [view], [view], [view], [view]]);
    }
  });

  it('refuses a warmed token once the token itself expires, though its stored row lives on', async () => {
    const owner = await signUp(a, { name: 'Ada' });
    const path = `/api/v1/entities/${await createEntity(owner)}`;
    // A token valid for 2 s whose stored row would last an hour: the cache keeps the earlier.
    const key = await b.app.get(SessionsService).signingKey();
    const tokenId = randomUUID();
    const token = jwt.sign({ typ: 'session' }, key, {
      algorithm: 'HS256',
      subject: owner.id,
      jwtid: tokenId,
      issuer: TOKEN_ISSUER,
      audience: TOKEN_ISSUER,
      expiresIn: 2,
    });
    const { exp } = jwt.decode(token) as { exp: number };
    await a.app.get(SessionRepository).insert([
      {
        id: tokenId,
        userId: owner.id,
        tokenHash: sha256(token),
        expiresAt: new Date(Date.now() + 3_600_000),
        role: 'user',
        singleSignOn: false,
      },
    ]);
    await warm(`Bearer ${token}`, path);
    await waitUntil(() => Date.now() > exp * 1000 + 50);
    const refused = await b.http.get(path).set('Authorization', `Bearer ${token}`).expect(401);
    expect(refused.body).toMatchObject({ error: 'valid authorization token is required' });
  });

  it('refuses a token warmed on B as soon as it is logged out through A', async () => {
    const owner = await signUp(a, { name: 'Ada' });
    const path = `/api/v1/entities/${await createEntity(owner)}`;
    await warm(owner.authorization, path);
    await revoke(
      a.http.post('/api/v1/users/logout').set('Authorization', owner.authorization).expect(204),
      owner.id,
    );
    await b.http.get(path).set('Authorization', owner.authorization).expect(401);
  });

  it('refuses every session warmed on B after logout-all through A', async () => {
    const owner = await signUp(a, { name: 'Ada' });
    const other = await signIn(a, owner.email, owner.password);
    const path = `/api/v1/entities/${await createEntity(owner)}`;
    await warm(owner.authorization, path);
    await warm(other.authorization, path);
    await revoke(
      a.http.post('/api/v1/users/logout/all').set('Authorization', owner.authorization).expect(204),
      owner.id,
    );
    await b.http.get(path).set('Authorization', owner.authorization).expect(401);
    await b.http.get(path).set('Authorization', other.authorization).expect(401);
  });

  it('refuses the other sessions warmed on B after a password change through A', async () => {
    const owner = await signUp(a, { name: 'Ada', password: 'old password' });
    const other = await signIn(a, owner.email, owner.password);
    const path = `/api/v1/entities/${await createEntity(owner)}`;
    await warm(other.authorization, path);
    await warm(owner.authorization, path);
    await revoke(
      a.http
        .put('/api/v1/users/change-password')
        .set('Authorization', owner.authorization)
        .send({ current: 'old password', new: 'new password' })
        .expect(204),
      owner.id,
    );
    await b.http.get(path).set('Authorization', other.authorization).expect(401);
    await b.http.get(path).set('Authorization', owner.authorization).expect(200);
  });

  it('refuses a token and an API key warmed on B once the account is deleted through A', async () => {
    const owner = await signUp(a, { name: 'Ada' });
    const path = `/api/v1/entities/${await createEntity(owner)}`;
    const key = await a.http
      .post('/api/v1/users/self/api-keys')
      .set('Authorization', owner.authorization)
      .send({ name: 'script' })
      .expect(201);
    const apiKey = (key.body as { token: string }).token;
    await warm(owner.authorization, path);
    await warm(apiKey, path);
    await revoke(
      a.http.delete('/api/v1/users/self').set('Authorization', owner.authorization).expect(204),
      owner.id,
    );
    await b.http.get(path).set('Authorization', owner.authorization).expect(401);
    await b.http.get(path).set('Authorization', apiKey).expect(401);
  });

  it('refuses an API key warmed on B once it is deleted through A', async () => {
    const owner = await signUp(a, { name: 'Ada' });
    const path = `/api/v1/entities/${await createEntity(owner)}`;
    const key = await a.http
      .post('/api/v1/users/self/api-keys')
      .set('Authorization', owner.authorization)
      .send({ name: 'script' })
      .expect(201);
    const { id, token } = key.body as { id: string; token: string };
    await warm(token, path);
    await revoke(
      a.http
        .delete(`/api/v1/users/self/api-keys/${id}`)
        .set('Authorization', owner.authorization)
        .expect(204),
      owner.id,
    );
    await b.http.get(path).set('Authorization', token).expect(401);
  });

  it('refuses a member warmed on B once removed from the group through A, and follows a role change', async () => {
    const owner = await signUp(a, { name: 'Ada' });
    const member = await signUpMember(a, owner);
    const demoted = await signUpMember(a, owner);
    const path = `/api/v1/entities/${await createEntity(owner)}`;
    await warm(member.authorization, path);
    await warm(member.authorization, path, owner.groupId);
    await warm(demoted.authorization, '/api/v1/tags');
    await b.http
      .post('/api/v1/tags')
      .set('Authorization', demoted.authorization)
      .send({ name: 'Allowed' })
      .expect(201);

    await revoke(
      a.http
        .delete(`/api/v1/groups/members/${member.id}`)
        .set('Authorization', owner.authorization)
        .expect(204),
      member.id,
    );
    await revoke(
      a.http
        .put(`/api/v1/groups/members/${demoted.id}`)
        .set('Authorization', owner.authorization)
        .send({ role: 'viewer' })
        .expect(200),
      demoted.id,
    );

    await b.http.get(path).set('Authorization', member.authorization).expect(403);
    await b.http
      .get(path)
      .set('Authorization', member.authorization)
      .set('X-Tenant', owner.groupId)
      .expect(403);
    await b.http
      .post('/api/v1/tags')
      .set('Authorization', demoted.authorization)
      .send({ name: 'Refused' })
      .expect(403);
  });

  it('ends access on the revoking instance itself before its notice arrives', async () => {
    const owner = await signUp(a, { name: 'Ada' });
    const member = await signUpMember(a, owner);
    const key = await a.http
      .post('/api/v1/users/self/api-keys')
      .set('Authorization', owner.authorization)
      .send({ name: 'script' })
      .expect(201);
    const { id: keyId, token: apiKey } = key.body as { id: string; token: string };
    const path = `/api/v1/entities/${await createEntity(owner)}`;
    await warm(owner.authorization, path);
    await warm(member.authorization, path);
    await warm(apiKey, path);

    await b.http.post('/api/v1/users/logout').set('Authorization', owner.authorization).expect(204);
    await b.http.get(path).set('Authorization', owner.authorization).expect(401);
    const again = await signIn(b, owner.email, owner.password);
    await b.http
      .delete(`/api/v1/groups/members/${member.id}`)
      .set('Authorization', again.authorization)
      .expect(204);
    await b.http.get(path).set('Authorization', member.authorization).expect(403);
    await b.http
      .delete(`/api/v1/users/self/api-keys/${keyId}`)
      .set('Authorization', again.authorization)
      .expect(204);
    await b.http.get(path).set('Authorization', apiKey).expect(401);
  });

  it('honours a revocation committed while its listening connection was down', async () => {
    const owner = await signUp(a, { name: 'Ada' });
    const path = `/api/v1/entities/${await createEntity(owner)}`;
    await warm(owner.authorization, path);
    // Terminated before the revocation commits: B's listener never sees its notice, and B
    // listens again only after its first reconnect delay.
    const before = await listenerPids(b);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_terminate_backend($1)', [listenerOfB]);
      await client.query('DELETE FROM auth_tokens WHERE user_id = $1', [owner.id]);
      await client.query('COMMIT');
    } finally {
      await client.end();
    }
    await waitUntil(async () => {
      const pids = await listenerPids(b);
      return pids.length === before.length && !pids.includes(listenerOfB) && subscribed(b);
    });
    listenerOfB = (await listenerPids(b)).find((pid) => !before.includes(pid))!;
    await b.http.get(path).set('Authorization', owner.authorization).expect(401);

    // Once it listens again, the cache serves and revocations reach it again.
    const again = await signIn(a, owner.email, owner.password);
    await warm(again.authorization, path);
    await revoke(
      a.http.post('/api/v1/users/logout').set('Authorization', again.authorization).expect(204),
      owner.id,
    );
    await b.http.get(path).set('Authorization', again.authorization).expect(401);
  });
});
