import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import { openFeed, refusal, type Feed } from './feed.js';

describe('GET /api/v1/ws/events: who may open the change feed', () => {
  const app = useTestApp();
  let owner: Session;
  let member: Session;
  let stranger: Session;
  const open: Feed[] = [];

  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    member = await signUpMember(app.trove, owner);
    stranger = await signUp(app.trove, { name: 'Eve' });
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((feed) => feed.close()));
  });

  const connect = async (options: Parameters<typeof openFeed>[1]): Promise<Feed> => {
    const feed = await openFeed(app.trove.baseUrl, options);
    open.push(feed);
    return feed;
  };

  /** The socket follows the owner's group: it hears a tag created there. */
  const hearsOwnersGroup = async (feed: Feed): Promise<void> => {
    await app.trove.http
      .post('/api/v1/tags')
      .set('Authorization', owner.authorization)
      .send({ name: `tag ${Math.random()}` })
      .expect(201);
    await feed.waitFor('tag.mutation');
    expect(feed.events).toEqual(['tag.mutation']);
  };

  describe('accepted credentials', () => {
    it('the Authorization header, with or without "Bearer "', async () => {
      await hearsOwnersGroup(await connect({ headers: { Authorization: owner.authorization } }));
      await hearsOwnersGroup(await connect({ headers: { Authorization: owner.token } }));
    });

    it('the session cookie of the web UI', async () => {
      const feed = await connect({
        headers: { Cookie: `hb.auth.token=${owner.token}; hb.auth.remember=true` },
      });
      await hearsOwnersGroup(feed);
    });

    it('?access_token=', async () => {
      await hearsOwnersGroup(await connect({ query: { access_token: owner.token } }));
    });

    it('the hb-auth subprotocol with the session or the attachment token, selecting hb-auth', async () => {
      const withSession = await connect({ protocols: ['hb-auth', owner.token] });
      expect(withSession.socket.protocol).toBe('hb-auth');
      await hearsOwnersGroup(withSession);
      const withAttachmentToken = await connect({
        protocols: ['hb-auth', owner.attachmentToken],
      });
      expect(withAttachmentToken.socket.protocol).toBe('hb-auth');
      await hearsOwnersGroup(withAttachmentToken);
    });

    it('an API key in the Authorization header', async () => {
      const created = await app.trove.http
        .post('/api/v1/users/self/api-keys')
        .set('Authorization', owner.authorization)
        .send({ name: 'feed' })
        .expect(201);
      const key = (created.body as { token: string }).token;
      await hearsOwnersGroup(await connect({ headers: { Authorization: `Bearer ${key}` } }));
      expect(await refusal(app.trove.baseUrl, { query: { access_token: key } })).toEqual({
        status: 401,
        body: { error: 'valid authorization token is required' },
      });
    });
  });

  describe('refused upgrades (no socket)', () => {
    it('401 without a credential', async () => {
      expect(await refusal(app.trove.baseUrl)).toEqual({
        status: 401,
        body: { error: 'authorization header or query is required' },
      });
    });

    it('401 for a bad token in each place', async () => {
      const invalid = { status: 401, body: { error: 'valid authorization token is required' } };
      const bad = `${owner.token.slice(0, -4)}AAAA`;
      expect(
        await refusal(app.trove.baseUrl, { headers: { Authorization: `Bearer ${bad}` } }),
      ).toEqual(invalid);
      expect(await refusal(app.trove.baseUrl, { query: { access_token: 'nonsense' } })).toEqual(
        invalid,
      );
      expect(await refusal(app.trove.baseUrl, { protocols: ['hb-auth', bad] })).toEqual(invalid);
      expect(
        await refusal(app.trove.baseUrl, {
          headers: { Cookie: `hb.auth.token=${bad}; hb.auth.remember=true` },
        }),
      ).toEqual(invalid);
    });

    it('401 for a token whose session was logged out', async () => {
      const session = await signUp(app.trove);
      await app.trove.http
        .post('/api/v1/users/logout')
        .set('Authorization', session.authorization)
        .expect(204);
      expect(
        await refusal(app.trove.baseUrl, { headers: { Authorization: session.authorization } }),
      ).toEqual({ status: 401, body: { error: 'valid authorization token is required' } });
    });

    it('403 for a group the user is not a member of, by ?tenant= or X-Tenant', async () => {
      const forbidden = {
        status: 403,
        body: { error: 'user does not have access to the requested tenant' },
      };
      expect(
        await refusal(app.trove.baseUrl, {
          headers: { Authorization: stranger.authorization },
          query: { tenant: owner.groupId },
        }),
      ).toEqual(forbidden);
      expect(
        await refusal(app.trove.baseUrl, {
          headers: { Authorization: stranger.authorization, 'X-Tenant': owner.groupId },
        }),
      ).toEqual(forbidden);
    });

    it('429 past 16 sockets of one user, and a slot frees when a socket closes', async () => {
      const user = await signUp(app.trove);
      const headers = { Authorization: user.authorization };
      const feeds = await Promise.all(
        Array.from({ length: 16 }, () => openFeed(app.trove.baseUrl, { headers })),
      );
      try {
        expect(await refusal(app.trove.baseUrl, { headers })).toEqual({
          status: 429,
          body: { error: 'at most 16 change-feed connections per user' },
        });
        // Other users are not affected.
        await connect({ headers: { Authorization: owner.authorization } });
        await feeds.pop()!.close();
        // The server forgets the socket when its side of the connection closes, which may come
        // just after the client's: try again until it has.
        let reopened: Feed | undefined;
        for (let attempt = 0; !reopened && attempt < 50; attempt++) {
          reopened = await openFeed(app.trove.baseUrl, { headers }).catch(async () => {
            await new Promise((resolve) => setTimeout(resolve, 20));
            return undefined;
          });
        }
        expect(reopened).toBeDefined();
        feeds.push(reopened!);
      } finally {
        await Promise.all(feeds.map((feed) => feed.close()));
      }
    });

    it('400 for a tenant that is not a UUID, as on HTTP', async () => {
      expect(
        await refusal(app.trove.baseUrl, {
          headers: { Authorization: owner.authorization },
          query: { tenant: 'nope' },
        }),
      ).toEqual({ status: 400, body: { error: 'invalid X-Tenant header format' } });
    });
  });

  it('answers a request that does not ask to upgrade with 426', async () => {
    const response = await app.trove.http
      .get('/api/v1/ws/events')
      .set('Authorization', owner.authorization)
      .expect(426);
    expect(response.body).toEqual({ error: 'this endpoint only accepts a WebSocket upgrade' });
    expect(response.headers.upgrade).toBe('websocket');
  });

  describe('the group of the socket', () => {
    it('a member follows the group named by ?tenant= or X-Tenant', async () => {
      // The member's own default group is the owner's; give them a second one of their own.
      const other = await app.trove.http
        .post('/api/v1/groups')
        .set('Authorization', member.authorization)
        .send({ name: 'Garage' })
        .expect(201);
      const otherId = (other.body as { id: string }).id;
      const byQuery = await connect({
        headers: { Authorization: member.authorization },
        query: { tenant: owner.groupId },
      });
      const byHeader = await connect({
        headers: { Authorization: member.authorization, 'X-Tenant': owner.groupId },
      });
      const inOther = await connect({
        headers: { Authorization: member.authorization },
        query: { tenant: otherId },
      });
      await hearsOwnersGroup(byQuery);
      await byHeader.waitFor('tag.mutation');
      await app.trove.http
        .post('/api/v1/tags')
        .set('Authorization', member.authorization)
        .set('X-Tenant', otherId)
        .send({ name: 'In the garage' })
        .expect(201);
      await inOther.waitFor('tag.mutation');
      expect(inOther.events).toEqual(['tag.mutation']);
      expect(byHeader.events).toEqual(['tag.mutation']);
    });
  });
});
