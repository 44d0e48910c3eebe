import { beforeAll, describe, expect, it } from 'vitest';
import { UNKNOWN_ID, useTestApp } from '../support/api.js';
import { signIn, signUp, signUpMember, type Session } from '../support/factories.js';
import { doneOf, getPage, postForm, tableRows, textOf } from './console-helpers.js';

const jwtId = (token: string): string =>
  (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { jti: string }).jti;

/** A time as the page shows it. */
const shown = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

describe('your account (/console/account)', () => {
  const app = useTestApp();
  let owner: Session;
  let viewer: Session;
  let outsider: Session;

  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
  });

  const self = (authorization: string) =>
    app.trove.http.get('/api/v1/users/self').set('Authorization', authorization);
  const apiKeysOf = async (userId: string) =>
    app.trove.query<{ id: string; name: string }>(
      'SELECT id, name FROM api_keys WHERE user_id = $1 ORDER BY name',
      [userId],
    );
  const tokensOf = async (userId: string) =>
    (
      await app.trove.query<{ id: string }>('SELECT id FROM auth_tokens WHERE user_id = $1', [
        userId,
      ])
    )
      .map((row) => row.id)
      .sort();
  const createKey = async (session: Session, name: string) =>
    (
      await app.trove.http
        .post('/api/v1/users/self/api-keys')
        .set('Authorization', session.authorization)
        .send({ name })
        .expect(201)
    ).body as { id: string; token: string; createdAt: string; expiresAt: string };

  describe('success', () => {
    it('shows who you are, your groups with your role, your sessions and your API keys', async () => {
      const user = await signUp(app.trove, { name: 'Grace' });
      const other = await signIn(app.trove, user.email, user.password);
      const key = await createKey(user, 'backup script');
      const sessions = (
        await app.trove.http
          .get('/api/v1/users/self/sessions')
          .set('Authorization', user.authorization)
          .expect(200)
      ).body as { id: string; createdAt: string; expiresAt: string }[];
      const response = await getPage(app.trove, user, '/console/account').expect(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-store');
      const text = textOf(response.text);
      expect(text).toContain(`Name Grace E-mail ${user.email} Groups Grace's Home (owner)`);
      expect(tableRows(response.text)).toEqual([
        [shown(sessions[0].createdAt), shown(sessions[0].expiresAt), 'Password', 'End'],
        [shown(sessions[1].createdAt), shown(sessions[1].expiresAt), 'Password', 'This session'],
        ['backup script', shown(key.createdAt), 'never', shown(key.expiresAt), 'Revoke'],
      ]);
      expect(sessions[0].id).toBe(jwtId(other.token));
      expect(response.text).toContain(
        `action="/console/account/sessions/${jwtId(other.token)}/end"`,
      );
      expect(response.text).not.toContain(`/console/account/sessions/${jwtId(user.token)}/end`);
      expect(response.text).toContain('action="/console/account/sessions/end-others"');
      expect(response.text).toContain(`action="/console/account/api-keys/${key.id}/revoke"`);
      expect(response.text).toMatch(/aria-current="page"\s*>Your account</);
    });

    it('creates an API key showing its secret once, in the answer itself; it works and is revoked', async () => {
      const user = await signUp(app.trove, { name: 'Hedy' });
      const created = await postForm(app.trove, user, '/console/account/api-keys', {
        name: 'nightly export',
        expiresAt: '',
      }).expect(200);
      expect(created.headers['cache-control']).toBe('no-store');
      expect(created.headers.location).toBeUndefined();
      const text = textOf(created.text);
      expect(text).toContain('Created the API key “nightly export”.');
      expect(text).toContain('Copy it now: it is not shown again.');
      const secret = /id="new-key" type="text" readonly value="(trove_[\w-]+)"/.exec(
        created.text,
      )?.[1];
      expect(secret).toMatch(/^trove_[\w-]{43}$/);
      await self(secret!).expect(200);
      const [stored] = await apiKeysOf(user.id);
      expect(stored.name).toBe('nightly export');
      const expires = await app.trove.query<{ expires_at: Date }>(
        'SELECT expires_at FROM api_keys WHERE id = $1',
        [stored.id],
      );
      expect(expires[0].expires_at.getTime() - Date.now()).toBeGreaterThan(29 * 86400_000);

      const reopened = await getPage(app.trove, user, '/console/account/api-keys').expect(303);
      expect(reopened.headers.location).toBe('/console/account');
      const again = await getPage(app.trove, user, '/console/account').expect(200);
      expect(again.text).not.toContain(secret!);
      expect(tableRows(again.text).at(-1)?.[0]).toBe('nightly export');

      const revoked = await postForm(
        app.trove,
        user,
        `/console/account/api-keys/${stored.id}/revoke`,
        {},
      ).expect(303);
      expect(revoked.headers.location).toMatch(/^\/console\/account\?done=/);
      expect(doneOf(revoked.headers.location)).toBe('Revoked the API key.');
      await self(secret!).expect(401);
      expect(await apiKeysOf(user.id)).toEqual([]);
    });

    it('creates a key expiring on a given day, or never', async () => {
      const user = await signUp(app.trove);
      await postForm(app.trove, user, '/console/account/api-keys', {
        name: 'a',
        expiresAt: '2031-05-01',
      }).expect(200);
      await postForm(app.trove, user, '/console/account/api-keys', {
        name: 'b',
        expiresAt: '',
        never: 'true',
      }).expect(200);
      const rows = await app.trove.query<{ name: string; expires_at: Date | null }>(
        'SELECT name, expires_at FROM api_keys WHERE user_id = $1 ORDER BY name',
        [user.id],
      );
      expect(rows).toEqual([
        { name: 'a', expires_at: new Date('2031-05-01T00:00:00.000Z') },
        { name: 'b', expires_at: null },
      ]);
    });

    it('ends another session at once, or all but this one', async () => {
      const user = await signUp(app.trove);
      const phone = await signIn(app.trove, user.email, user.password);
      const laptop = await signIn(app.trove, user.email, user.password);
      const tablet = await signIn(app.trove, user.email, user.password);
      const ended = await postForm(
        app.trove,
        user,
        `/console/account/sessions/${jwtId(phone.token)}/end`,
        {},
      ).expect(303);
      expect(doneOf(ended.headers.location)).toBe('Ended the session.');
      await self(phone.authorization).expect(401);
      await self(laptop.authorization).expect(200);

      const others = await postForm(
        app.trove,
        user,
        '/console/account/sessions/end-others',
        {},
      ).expect(303);
      expect(doneOf(others.headers.location)).toBe('Ended every session but this one.');
      await self(laptop.authorization).expect(401);
      await self(tablet.authorization).expect(401);
      await self(user.authorization).expect(200);
      expect(await tokensOf(user.id)).toEqual(
        [jwtId(user.token), jwtId(user.attachmentToken)].sort(),
      );
      const page = await getPage(app.trove, user, '/console/account').expect(200);
      expect(page.text).not.toContain('End all other sessions');
      expect(tableRows(page.text)).toEqual([
        [expect.any(String), expect.any(String), 'Password', 'This session'],
      ]);
    });
  });

  describe('bad input', () => {
    it('names what is wrong with a new key, and stores nothing', async () => {
      const before = await apiKeysOf(owner.id);
      const cases: [Record<string, string>, string][] = [
        [{ name: '' }, 'name'],
        [{ name: 'x'.repeat(256) }, 'name'],
        [{ name: 'ok', expiresAt: 'tomorrow' }, 'expiresAt'],
      ];
      for (const [form, field] of cases) {
        const response = await postForm(app.trove, owner, '/console/account/api-keys', form);
        expect([field, response.status]).toEqual([field, 422]);
        expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(textOf(response.text)).toContain('Check the form');
        expect(textOf(response.text)).toContain(field);
      }
      expect(await apiKeysOf(owner.id)).toEqual(before);
    });

    it('answers 400 for an id that is not a UUID and 404 for an unknown one, ending nothing', async () => {
      const before = await tokensOf(owner.id);
      await postForm(app.trove, owner, '/console/account/sessions/phone/end', {}).expect(400);
      await postForm(app.trove, owner, '/console/account/api-keys/key/revoke', {}).expect(400);
      const session = await postForm(
        app.trove,
        owner,
        `/console/account/sessions/${UNKNOWN_ID}/end`,
        {},
      ).expect(404);
      expect(textOf(session.text)).toContain(`session ${UNKNOWN_ID} not found`);
      const key = await postForm(
        app.trove,
        owner,
        `/console/account/api-keys/${UNKNOWN_ID}/revoke`,
        {},
      ).expect(404);
      expect(textOf(key.text)).toContain(`API key ${UNKNOWN_ID} not found`);
      expect(await tokensOf(owner.id)).toEqual(before);
    });
  });

  describe('authentication and roles', () => {
    it('sends a signed-out browser to sign in and back, and refuses its form post', async () => {
      const page = await app.trove.http.get('/console/account').expect(302);
      expect(page.headers.location).toBe('/sign-in?next=%2Fconsole%2Faccount');
      const post = await app.trove.http
        .post('/console/account/api-keys')
        .set('Origin', app.trove.baseUrl)
        .type('form')
        .send({ name: 'sneaky' })
        .expect(401);
      expect(textOf(post.text)).toContain('Your session has ended.');
    });

    it('lets a viewer manage their own keys and sessions, as the API does', async () => {
      const page = await getPage(app.trove, viewer, '/console/account').expect(200);
      expect(textOf(page.text)).toContain(`Groups Ada's Home (viewer)`);
      expect(page.text).toContain('action="/console/account/api-keys"');
      const created = await postForm(app.trove, viewer, '/console/account/api-keys', {
        name: 'viewer script',
      }).expect(200);
      expect(textOf(created.text)).toContain('Copy it now');
      const [key] = await apiKeysOf(viewer.id);
      await postForm(app.trove, viewer, `/console/account/api-keys/${key.id}/revoke`, {}).expect(
        303,
      );
      expect(await apiKeysOf(viewer.id)).toEqual([]);
      const other = await signIn(app.trove, viewer.email, viewer.password);
      await postForm(
        app.trove,
        viewer,
        `/console/account/sessions/${jwtId(other.token)}/end`,
        {},
      ).expect(303);
      await self(other.authorization).expect(401);
    });

    it('refuses a form posted from another site', async () => {
      const other = await signIn(app.trove, owner.email, owner.password);
      const before = await apiKeysOf(owner.id);
      const create = await postForm(
        app.trove,
        owner,
        '/console/account/api-keys',
        { name: 'mallory' },
        'https://evil.example',
      ).expect(403);
      expect(textOf(create.text)).toContain('This form was sent from another site');
      await postForm(
        app.trove,
        owner,
        `/console/account/sessions/${jwtId(other.token)}/end`,
        {},
        'https://evil.example',
      ).expect(403);
      await postForm(
        app.trove,
        owner,
        '/console/account/sessions/end-others',
        {},
        'https://evil.example',
      ).expect(403);
      expect(await apiKeysOf(owner.id)).toEqual(before);
      await self(other.authorization).expect(200);
    });
  });

  describe('another user', () => {
    it('can neither see nor end your session or key', async () => {
      const theirKey = await createKey(outsider, 'their key');
      const theirSession = await signIn(app.trove, outsider.email, outsider.password);
      const sessionsBefore = await tokensOf(outsider.id);
      const page = await getPage(app.trove, owner, '/console/account').expect(200);
      expect(page.text).not.toContain('their key');
      expect(page.text).not.toContain(jwtId(theirSession.token));
      const end = await postForm(
        app.trove,
        owner,
        `/console/account/sessions/${jwtId(theirSession.token)}/end`,
        {},
      ).expect(404);
      expect(textOf(end.text)).toContain(`session ${jwtId(theirSession.token)} not found`);
      const revoke = await postForm(
        app.trove,
        owner,
        `/console/account/api-keys/${theirKey.id}/revoke`,
        {},
      ).expect(404);
      expect(textOf(revoke.text)).toContain(`API key ${theirKey.id} not found`);
      await self(theirSession.authorization).expect(200);
      await self(theirKey.token).expect(200);
      expect(await tokensOf(outsider.id)).toEqual(sessionsBefore);
      expect(await apiKeysOf(outsider.id)).toEqual([{ id: theirKey.id, name: 'their key' }]);
    });
  });
});
