import { performance } from 'node:perf_hooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { CREDENTIALS_CHANNEL } from '../../src/identity/auth/verified-credentials.js';
import { DatabaseNotifications } from '../../src/platform/database/database-notifications.js';
import { CLOSE_POLICY } from '../../src/web/change-feed/change-feed.gateway.js';
import {
  attachmentUrl,
  BAD_TOKEN,
  createEntity,
  uploadOk,
} from '../attachments/attachment-helpers.js';
import { openFeed, refusal, type Feed } from '../events/feed.js';
import { useSecondInstance, useTestApp } from '../support/api.js';
import { signIn, signUp, signUpMember, type Session } from '../support/factories.js';

/** A session token and the attachment token issued with it. */
interface Pair {
  authorization: string;
  attachmentToken: string;
}

const REVOKED = { code: CLOSE_POLICY, reason: 'valid authorization token is required' };

const jwtId = (token: string): string =>
  (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { jti: string }).jti;

const waitUntil = async (condition: () => boolean): Promise<void> => {
  for (let attempt = 0; !condition(); attempt += 1) {
    if (attempt > 500) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/**
 * The session and its attachment token are one pair: whichever way the session ends, the
 * attachment token ends with it on every instance, and the change-feed sockets opened with
 * either close. Pings are set far apart, so that the sockets close on the database's notice and
 * not on a ping's check.
 */
describe('a sign-out ends the attachment token issued with the session', () => {
  const app = useTestApp({ TROVE_WS_PING_INTERVAL: '300', TROVE_THUMBNAIL_ENABLED: 'false' });
  const second = useSecondInstance(app);
  let owner: Session;
  let download: string;

  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    const entity = await createEntity(app.trove, owner, 'Camera');
    const { attachment } = await uploadOk(app.trove, owner, entity.id, {
      content: Buffer.from('manual'),
      name: 'manual.txt',
    });
    download = attachmentUrl(entity.id, attachment.id);
    for (const instance of [app.trove.app, second.instance.app]) {
      await waitUntil(() => instance.get(DatabaseNotifications).isSubscribed(CREDENTIALS_CHANNEL));
    }
  });

  const instances = () => [app.trove, second.instance];

  /** The status and body of downloading the attachment with `token` through `trove`. */
  const downloadWith = async (
    token: string,
    trove: { http: typeof app.trove.http } = app.trove,
  ): Promise<[number, unknown]> => {
    const response = await trove.http.get(download).query({ access_token: token });
    return [response.status, response.status === 200 ? response.text : response.body];
  };

  /** A socket opened the way Homebox's web UI opens it: the attachment token as subprotocol. */
  const listenWith = (token: string, baseUrl = app.trove.baseUrl): Promise<Feed> =>
    openFeed(baseUrl, { protocols: ['hb-auth', token] });

  /** Downloads with the pair's attachment token on both instances (each verifies and keeps it). */
  const warm = async (pair: Pair): Promise<void> => {
    for (const trove of instances()) {
      for (let round = 0; round < 2; round += 1) {
        expect(await downloadWith(pair.attachmentToken, trove)).toEqual([200, 'manual']);
      }
    }
  };

  /** The attachment token downloads nothing and opens no socket, on either instance. */
  const expectEnded = async (pair: Pair): Promise<void> => {
    for (const trove of instances()) {
      expect(await downloadWith(pair.attachmentToken, trove)).toEqual([401, BAD_TOKEN]);
      expect(
        await refusal(trove.baseUrl, { protocols: ['hb-auth', pair.attachmentToken] }),
      ).toEqual({ status: 401, body: BAD_TOKEN });
      const self = await trove.http
        .get('/api/v1/users/self')
        .set('Authorization', pair.authorization);
      expect([self.status, self.body]).toEqual([401, BAD_TOKEN]);
    }
  };

  /** The attachment token still downloads and opens a socket. */
  const expectValid = async (pair: Pair): Promise<void> => {
    for (const trove of instances()) {
      expect(await downloadWith(pair.attachmentToken, trove)).toEqual([200, 'manual']);
    }
    const feed = await listenWith(pair.attachmentToken);
    expect(feed.socket.protocol).toBe('hb-auth');
    await feed.close();
  };

  const storedTokens = async (pair: Pair): Promise<unknown[]> =>
    app.trove.query('SELECT id FROM auth_tokens WHERE id = ANY($1::uuid[])', [
      [jwtId(pair.authorization.replace(/^Bearer /, '')), jwtId(pair.attachmentToken)],
    ]);

  it('stores the attachment token naming the session it was issued with', async () => {
    const pair = await signIn(app.trove, owner.email, owner.password);
    const rows = await app.trove.query<{ id: string; session_id: string | null; role: string }>(
      `SELECT t.id, t.session_id, r.role FROM auth_tokens t JOIN auth_roles r ON r.token_id = t.id
       WHERE t.id = ANY($1::uuid[]) ORDER BY r.role`,
      [[jwtId(pair.token), jwtId(pair.attachmentToken)]],
    );
    expect(rows).toEqual([
      { id: jwtId(pair.attachmentToken), session_id: jwtId(pair.token), role: 'attachments' },
      { id: jwtId(pair.token), session_id: null, role: 'user' },
    ]);
  });

  it('POST /users/logout ends the attachment token and closes its sockets; other sessions keep theirs', async () => {
    const pair = await signIn(app.trove, owner.email, owner.password);
    const other = await signIn(app.trove, owner.email, owner.password);
    await warm(pair);
    const feed = await listenWith(pair.attachmentToken);
    const bySession = await openFeed(app.trove.baseUrl, {
      headers: { Authorization: pair.authorization },
    });
    const otherFeed = await listenWith(other.attachmentToken);

    await app.trove.http
      .post('/api/v1/users/logout')
      .set('Authorization', pair.authorization)
      .expect(204);

    expect(await feed.closed).toEqual(REVOKED);
    expect(await bySession.closed).toEqual(REVOKED);
    await expectEnded(pair);
    expect(await storedTokens(pair)).toEqual([]);
    expect(otherFeed.socket.readyState).toBe(otherFeed.socket.OPEN);
    await expectValid(other);
    await otherFeed.close();
  });

  it('DELETE /users/self/sessions/:id from another session ends the pair and closes its sockets', async () => {
    const pair = await signIn(app.trove, owner.email, owner.password);
    const other = await signIn(app.trove, owner.email, owner.password);
    await warm(pair);
    const feed = await listenWith(pair.attachmentToken);
    const bySession = await openFeed(app.trove.baseUrl, {
      headers: { Authorization: pair.authorization },
    });

    await app.trove.http
      .delete(`/api/v1/users/self/sessions/${jwtId(pair.authorization.replace(/^Bearer /, ''))}`)
      .set('Authorization', other.authorization)
      .expect(204);

    expect(await feed.closed).toEqual(REVOKED);
    expect(await bySession.closed).toEqual(REVOKED);
    await expectEnded(pair);
    expect(await storedTokens(pair)).toEqual([]);
    await expectValid(other);
  });

  it('the attachment token cannot log out, nor can another user end the pair', async () => {
    const pair = await signIn(app.trove, owner.email, owner.password);
    const stranger = await signUp(app.trove, { name: 'Eve' });
    const feed = await listenWith(pair.attachmentToken);

    const byAttachmentToken = await app.trove.http
      .post('/api/v1/users/logout')
      .query({ access_token: pair.attachmentToken });
    expect([byAttachmentToken.status, byAttachmentToken.body]).toEqual([
      403,
      { error: 'Forbidden' },
    ]);
    await app.trove.http
      .post('/api/v1/users/logout')
      .set('Authorization', stranger.authorization)
      .expect(204);
    await app.trove.http.post('/api/v1/users/logout').expect(401);

    await expectValid(pair);
    expect(await storedTokens(pair)).toHaveLength(2);
    expect(feed.socket.readyState).toBe(feed.socket.OPEN);
    await feed.close();
  });

  it('GET /users/refresh ends the old pair and closes its sockets; the new pair works', async () => {
    const pair = await signIn(app.trove, owner.email, owner.password);
    await warm(pair);
    const feed = await listenWith(pair.attachmentToken);

    const response = await app.trove.http
      .get('/api/v1/users/refresh')
      .set('Authorization', pair.authorization)
      .expect(200);
    const renewed = response.body as { raw: string; attachmentToken: string };

    expect(await feed.closed).toEqual(REVOKED);
    await expectEnded(pair);
    expect(await storedTokens(pair)).toEqual([]);
    expect(renewed.attachmentToken).not.toBe(pair.attachmentToken);
    await expectValid({
      authorization: `Bearer ${renewed.raw}`,
      attachmentToken: renewed.attachmentToken,
    });
  });

  it('a refresh whose revocation fails keeps the old pair working and issues no new pair', async () => {
    const pair = await signIn(app.trove, owner.email, owner.password);
    await warm(pair);
    const sessionId = jwtId(pair.authorization.replace(/^Bearer /, ''));
    const tokensOfOwner = () =>
      app.trove.query<{ id: string }>(
        'SELECT t.id FROM auth_tokens t JOIN users u ON u.id = t.user_id WHERE u.email = $1 ORDER BY t.id',
        [owner.email],
      );
    const before = await tokensOfOwner();
    // The revocation of this session fails as a serialization failure would, after the new
    // pair has been written in the same transaction.
    await app.trove.query(
      `CREATE FUNCTION refuse_session_end() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'refused' USING ERRCODE = '40001'; END $$`,
    );
    await app.trove.query(
      `CREATE TRIGGER refuse_session_end BEFORE DELETE ON auth_tokens FOR EACH ROW
       WHEN (OLD.id = '${sessionId}'::uuid) EXECUTE FUNCTION refuse_session_end()`,
    );
    try {
      const response = await app.trove.http
        .get('/api/v1/users/refresh')
        .set('Authorization', pair.authorization);
      expect([response.status, response.body]).toEqual([
        409,
        {
          error:
            'the change crossed a concurrent change of the same records and was not made; send it again',
        },
      ]);
    } finally {
      await app.trove.query('DROP TRIGGER refuse_session_end ON auth_tokens');
      await app.trove.query('DROP FUNCTION refuse_session_end()');
    }

    expect(await tokensOfOwner()).toEqual(before);
    expect(await storedTokens(pair)).toHaveLength(2);
    await expectValid(pair);
    const self = await app.trove.http
      .get('/api/v1/users/self')
      .set('Authorization', pair.authorization);
    expect(self.status).toBe(200);
  });

  it('POST /users/logout/all ends every attachment token of the user and closes their sockets', async () => {
    const member = await signUpMember(app.trove, owner);
    const other = await signIn(app.trove, member.email, member.password);
    await warm(member);
    const feeds = [
      await listenWith(member.attachmentToken),
      await listenWith(other.attachmentToken, second.instance.baseUrl),
    ];

    await app.trove.http
      .post('/api/v1/users/logout/all')
      .set('Authorization', member.authorization)
      .expect(204);

    for (const feed of feeds) expect(await feed.closed).toEqual(REVOKED);
    await expectEnded(member);
    await expectEnded(other);
    await expectValid(await signIn(app.trove, owner.email, owner.password));
  });

  it('a password change ends the other sessions’ attachment tokens and keeps the presenting pair', async () => {
    const member = await signUpMember(app.trove, owner);
    const other = await signIn(app.trove, member.email, member.password);
    await warm(other);
    const otherFeed = await listenWith(other.attachmentToken, second.instance.baseUrl);
    const ownFeed = await listenWith(member.attachmentToken);

    await app.trove.http
      .put('/api/v1/users/change-password')
      .set('Authorization', member.authorization)
      .send({ current: member.password, new: 'a new password' })
      .expect(204);

    expect(await otherFeed.closed).toEqual(REVOKED);
    await expectEnded(other);
    expect(ownFeed.socket.readyState).toBe(ownFeed.socket.OPEN);
    await expectValid(member);
    await ownFeed.close();
  });

  it('deleting the account ends its attachment tokens and closes their sockets', async () => {
    const member = await signUpMember(app.trove, owner);
    await warm(member);
    const feed = await listenWith(member.attachmentToken, second.instance.baseUrl);

    await app.trove.http
      .delete('/api/v1/users/self')
      .set('Authorization', member.authorization)
      .expect(204);

    expect(await feed.closed).toEqual(REVOKED);
    await expectEnded(member);
  });

  it('a logout on one instance closes the sockets the other holds with either token', async () => {
    const pair = await signIn(app.trove, owner.email, owner.password);
    await warm(pair);
    const feeds = [
      await listenWith(pair.attachmentToken, second.instance.baseUrl),
      await openFeed(second.instance.baseUrl, { headers: { Authorization: pair.authorization } }),
    ];
    const closedAt = feeds.map((feed) => feed.closed.then(() => performance.now()));

    const sent = performance.now();
    await app.trove.http
      .post('/api/v1/users/logout')
      .set('Authorization', pair.authorization)
      .expect(204);
    const answered = performance.now();

    for (const feed of feeds) expect(await feed.closed).toEqual(REVOKED);
    const closed = await Promise.all(closedAt);
    // Reported, not asserted: how long the other instance took to close its sockets.
    console.info(
      `logout answered after ${(answered - sent).toFixed(1)} ms; the other instance closed ` +
        `its sockets ${closed.map((at) => `${(at - sent).toFixed(1)} ms`).join(' and ')} ` +
        'after the logout was sent',
    );
    await expectEnded(pair);
  });
});
