import type { Socket } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHANGES_CHANNEL } from '../../src/platform/change-events/change-events.service.js';
import { CLOSE_GOING_AWAY, CLOSE_POLICY } from '../../src/web/change-feed/change-feed.gateway.js';
import { as, useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import { createTestApp } from '../support/test-app.js';
import { openFeed, type Feed } from './feed.js';

/** Notices in one flood: far more bytes than the socket buffers between server and client hold. */
const FLOOD = 400_000;

describe('GET /api/v1/ws/events: pings, revocation, slow clients, shutdown', () => {
  const app = useTestApp({ TROVE_WS_PING_INTERVAL: '1' });
  let ada: Session;
  let eve: Session;

  beforeAll(async () => {
    ada = await signUp(app.trove, { name: 'Ada' });
    eve = await signUp(app.trove, { name: 'Eve' });
  });

  const listen = (token: string, protocols?: string[]): Promise<Feed> =>
    openFeed(
      app.trove.baseUrl,
      protocols ? { protocols } : { headers: { Authorization: `Bearer ${token}` } },
    );

  it('every socket gets {"event":"ping"} every TROVE_WS_PING_INTERVAL seconds', async () => {
    const feed = await listen(ada.token);
    await feed.waitFor('ping', 2);
    expect(feed.frames.filter((frame) => frame !== 'ping')).toEqual([]);
    await feed.close();
  });

  it('a socket is closed with 1008 once its session is logged out', async () => {
    const session = await signUp(app.trove);
    const feed = await listen(session.token);
    const other = await listen(ada.token);
    await as(app.trove, session, 'post', '/api/v1/users/logout').expect(204);
    expect(await feed.closed).toEqual({
      code: CLOSE_POLICY,
      reason: 'valid authorization token is required',
    });
    // Other sockets stay open.
    await other.waitFor('ping', 2);
    expect(other.socket.readyState).toBe(other.socket.OPEN);
    await other.close();
  });

  it('a socket opened with the attachment token is closed after logout from every session', async () => {
    const session = await signUp(app.trove);
    const feed = await listen(session.attachmentToken, ['hb-auth', session.attachmentToken]);
    await as(app.trove, session, 'post', '/api/v1/users/logout/all').expect(204);
    expect((await feed.closed).code).toBe(CLOSE_POLICY);
  });

  it('a socket is closed with 1008 once its user is removed from the group', async () => {
    const member = await signUpMember(app.trove, ada);
    const feed = await listen(member.token);
    await as(app.trove, ada, 'delete', `/api/v1/groups/members/${member.id}`).expect(204);
    expect(await feed.closed).toEqual({
      code: CLOSE_POLICY,
      reason: 'user does not have access to the requested tenant',
    });
  });

  it('a client that does not read is dropped once its unsent frames pass the bound', async () => {
    const slow = await listen(ada.token);
    const eveFeed = await listen(eve.token);
    // Stop reading: what the server sends piles up in the socket buffers, then in the server.
    (slow.socket as unknown as { _socket: Socket })._socket.pause();
    await app.trove.query(
      `SELECT pg_notify($1, json_build_object('groupId', $2::text, 'event', 'export.mutation', 'n', n)::text)
         FROM generate_series(1, $3::int) AS n`,
      [CHANGES_CHANNEL, ada.groupId, FLOOD],
    );
    // Notices reach the sockets in commit order: once Eve hears her tag, the flood was sent.
    await as(app.trove, eve, 'post', '/api/v1/tags').send({ name: 'after the flood' }).expect(201);
    await eveFeed.waitFor('tag.mutation', 1, 60_000);
    (slow.socket as unknown as { _socket: Socket })._socket.resume();
    const closed = await slow.closed;
    expect(closed.code).toBe(1006);
    const received = slow.frames.filter((frame) => frame === 'export.mutation').length;
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan(FLOOD);
    await eveFeed.close();
  });

  it('shutting the app down closes its sockets with 1001', async () => {
    const trove = await createTestApp();
    try {
      const session = await signUp(trove);
      const feed = await openFeed(trove.baseUrl, {
        headers: { Authorization: session.authorization },
      });
      await trove.app.close();
      expect((await feed.closed).code).toBe(CLOSE_GOING_AWAY);
    } finally {
      // Closed again (nothing left to close), then its database and data directory go.
      await trove.close();
    }
  });
});
