import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  countNotifiers,
  createNotifier,
  expectUnauthenticated,
  ISO,
  listNotifiers,
  NOTIFIERS,
  OUT_KEYS,
  storedRow,
  UNKNOWN_ID,
  VIEWER_ONLY_READS,
  type NotifierBody,
} from './notifier-helpers.js';

const NTFY_URL = 'ntfy://alice:s3cret@93.184.215.14/household-alerts';
const BARK_URL = 'bark://devicekey@api.day.app';

describe('notifiers: create, list, update, delete', () => {
  let owner: Session;
  let member: Session;
  let viewer: Session;
  let outsider: Session;

  const app = useTestApp();
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    member = await signUpMember(app.trove, owner, 'user');
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
  });

  describe('POST /api/v1/notifiers', () => {
    it('creates an active notifier (201) with exactly the NotifierOut fields', async () => {
      const response = await as(app.trove, owner, 'post', NOTIFIERS)
        .send({ name: '  Phone  ', url: NTFY_URL })
        .expect(201);
      const body = response.body as NotifierBody;
      expect(Object.keys(body).sort()).toEqual(OUT_KEYS);
      expect(body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/) as string,
        userId: owner.id,
        groupId: owner.groupId,
        createdAt: expect.stringMatching(ISO) as string,
        updatedAt: expect.stringMatching(ISO) as string,
        name: 'Phone',
        isActive: true,
        url: NTFY_URL,
        lastSuccessAt: null,
        lastError: null,
        lastErrorAt: null,
      });
    });

    it('keeps isActive false, and accepts any allowed scheme, delivered or not', async () => {
      for (const url of [BARK_URL, 'generic+https://93.184.215.14/hook', 'zulip://bot@chat']) {
        const body = await createNotifier(app.trove, owner, { name: 'Off', isActive: false, url });
        expect(body).toMatchObject({ name: 'Off', isActive: false, url });
      }
    });

    it("accepts a URL of an allowed scheme whatever its service's form, as Homebox does", async () => {
      // Each misses what its service needs; that is found when a message is sent.
      for (const url of [
        'discord://0123456789',
        'ntfy://93.184.215.14/',
        'smtp://mail.example.com:25/?from=a@example.com',
        'telegram://123:abc@telegram',
        'gotify://',
        'slack://only-one-part',
        'teams://',
        'mattermost://93.184.215.14',
        'generic://',
      ]) {
        const body = await createNotifier(app.trove, owner, { name: 'Unchecked', url });
        expect(body).toMatchObject({ name: 'Unchecked', isActive: true, url, lastError: null });
      }
    });

    it("passes Homebox's client sequence: create discord:// and ten characters, update, delete", async () => {
      const before = await countNotifiers(app.trove);
      const created = await as(app.trove, member, 'post', NOTIFIERS)
        .send({ name: 'test-notifier', url: 'discord://0123456789', isActive: true })
        .expect(201);
      const notifier = created.body as NotifierBody;
      expect(notifier).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/) as string,
        userId: member.id,
        groupId: owner.groupId,
        createdAt: expect.stringMatching(ISO) as string,
        updatedAt: expect.stringMatching(ISO) as string,
        name: 'test-notifier',
        isActive: true,
        url: 'discord://0123456789',
        lastSuccessAt: null,
        lastError: null,
        lastErrorAt: null,
      });
      const updated = await as(app.trove, member, 'put', `${NOTIFIERS}/${notifier.id}`)
        .send({ name: 'updated-test-notifier', url: 'discord://abcdefghij', isActive: true })
        .expect(200);
      expect(updated.body).toEqual({
        ...notifier,
        updatedAt: expect.stringMatching(ISO) as string,
        name: 'updated-test-notifier',
        url: 'discord://abcdefghij',
      });
      const mine = async () =>
        (await listNotifiers(app.trove, member)).filter((one) => one.id === notifier.id);
      expect(await mine()).toEqual([updated.body]);
      await as(app.trove, member, 'delete', `${NOTIFIERS}/${notifier.id}`).expect(204);
      expect(await mine()).toEqual([]);
      expect(await countNotifiers(app.trove)).toBe(before);
    });

    it('never stores the URL in clear: the table holds only its encryption', async () => {
      const created = await createNotifier(app.trove, owner, { name: 'Secret', url: NTFY_URL });
      const row = await storedRow(app.trove, created.id);
      expect(row).toBeDefined();
      expect(row).not.toHaveProperty('url');
      expect(row!.url_plaintext).toBeNull();
      expect(row!.url_encrypted).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
      expect(JSON.stringify(row)).not.toContain('s3cret');
      expect(JSON.stringify(row)).not.toContain('household-alerts');
      const again = await createNotifier(app.trove, owner, { name: 'Secret', url: NTFY_URL });
      expect((await storedRow(app.trove, again.id))!.url_encrypted).not.toBe(row!.url_encrypted);
    });

    it('refuses bad bodies with 422 naming the field, and writes nothing', async () => {
      const before = await countNotifiers(app.trove);
      const cases: [Record<string, unknown>, string][] = [
        [{ url: NTFY_URL }, 'name'],
        [{ name: '', url: NTFY_URL }, 'name'],
        [{ name: '   ', url: NTFY_URL }, 'name'],
        [{ name: 'x'.repeat(256), url: NTFY_URL }, 'name'],
        [{ name: 'A' }, 'url'],
        [{ name: 'A', url: 42 }, 'url'],
        [{ name: 'A', url: 'https://example.com/hook' }, 'url'],
        [{ name: 'A', url: 'NTFY://host/topic' }, 'url'],
        [{ name: 'A', url: 'x'.repeat(2049) }, 'url'],
        [{ name: 'A', url: NTFY_URL, isActive: 'yes' }, 'isActive'],
      ];
      for (const [body, field] of cases) {
        const response = await as(app.trove, owner, 'post', NOTIFIERS).send(body);
        expect(response.status, JSON.stringify(body)).toBe(422);
        expect(Object.keys((response.body as { fields: object }).fields)).toEqual([field]);
      }
      const notAllowed = await as(app.trove, owner, 'post', NOTIFIERS)
        .send({ name: 'A', url: 'mailto://x' })
        .expect(422);
      expect(notAllowed.body).toEqual({
        error: 'Validation Error',
        fields: { url: expect.stringContaining('url must use one of the notifier schemes') },
      });
      expect(await countNotifiers(app.trove)).toBe(before);
    });

    it('refuses (400, naming the reason) a URL whose target is a private or metadata address', async () => {
      const before = await countNotifiers(app.trove);
      const cases: [string, string][] = [
        ['generic+http://127.0.0.1:8080/hook', '127.0.0.1 is a loopback address'],
        ['generic://192.168.1.20/hook', '192.168.1.20 is a private address'],
        ['ntfy://10.1.2.3/topic?scheme=http', '10.1.2.3 is a private address'],
        ['gotify://169.254.169.254/Aabcdefghijklmn', 'cloud metadata'],
        ['mattermost://[::1]:8065/token', '::1 is a loopback address'],
        ['smtp://user:pw@127.0.0.1:25/?from=a@example.com&to=b@example.com', 'loopback'],
      ];
      for (const [url, reason] of cases) {
        const response = await as(app.trove, owner, 'post', NOTIFIERS).send({ name: 'X', url });
        expect(response.status, url).toBe(400);
        expect((response.body as { error: string }).error).toContain(reason);
        expect((response.body as { error: string }).error).not.toContain('pw@');
      }
      expect(await countNotifiers(app.trove)).toBe(before);
    });

    it('answers 401 without a valid token and 403 to a viewer', async () => {
      await expectUnauthenticated(app.trove, 'post', NOTIFIERS, { name: 'A', url: BARK_URL });
      const response = await as(app.trove, viewer, 'post', NOTIFIERS)
        .send({ name: 'A', url: BARK_URL })
        .expect(403);
      expect(response.body).toEqual(VIEWER_ONLY_READS);
    });
  });

  describe('GET /api/v1/notifiers', () => {
    it("lists only the caller's own notifiers in the group, by name", async () => {
      const fresh = await signUp(app.trove, { name: 'Lister' });
      const colleague = await signUpMember(app.trove, fresh, 'user');
      const b = await createNotifier(app.trove, fresh, { name: 'beta', url: BARK_URL });
      const a = await createNotifier(app.trove, fresh, { name: 'Alpha', url: NTFY_URL });
      const c = await createNotifier(app.trove, fresh, { name: 'Gamma', url: BARK_URL });
      await createNotifier(app.trove, colleague, { name: 'Colleague', url: BARK_URL });

      const response = await as(app.trove, fresh, 'get', NOTIFIERS).expect(200);
      expect(response.body).toEqual([a, b, c]);
      expect((await listNotifiers(app.trove, colleague)).map((n) => n.name)).toEqual(['Colleague']);
      expect(await listNotifiers(app.trove, outsider)).toEqual([]);
    });

    it('answers 401 without a valid token', async () => {
      await expectUnauthenticated(app.trove, 'get', NOTIFIERS);
    });
  });

  describe('PUT /api/v1/notifiers/{id}', () => {
    it('changes name and isActive and keeps the URL when url is null or absent', async () => {
      const created = await createNotifier(app.trove, owner, { name: 'Before', url: NTFY_URL });
      const stored = (await storedRow(app.trove, created.id))!.url_encrypted;

      const response = await as(app.trove, owner, 'put', `${NOTIFIERS}/${created.id}`)
        .send({ name: 'After', isActive: false, url: null })
        .expect(200);
      const body = response.body as NotifierBody;
      expect(Object.keys(body).sort()).toEqual(OUT_KEYS);
      expect(body).toEqual({
        ...created,
        name: 'After',
        isActive: false,
        updatedAt: expect.stringMatching(ISO) as string,
      });
      expect(Date.parse(body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
      expect((await storedRow(app.trove, created.id))!.url_encrypted).toBe(stored);

      const absent = await as(app.trove, owner, 'put', `${NOTIFIERS}/${created.id}`)
        .send({ name: 'Again' })
        .expect(200);
      expect(absent.body).toMatchObject({ name: 'Again', isActive: false, url: NTFY_URL });
    });

    it('replaces the URL when one is given, stored encrypted again', async () => {
      const created = await createNotifier(app.trove, owner, { name: 'Swap', url: NTFY_URL });
      const next = 'gotify://93.184.215.14/Aabcdefghijklmn';
      const response = await as(app.trove, owner, 'put', `${NOTIFIERS}/${created.id}`)
        .send({ name: 'Swap', isActive: true, url: next })
        .expect(200);
      expect(response.body).toMatchObject({ id: created.id, url: next, isActive: true });
      const row = (await storedRow(app.trove, created.id))!;
      expect(JSON.stringify(row)).not.toContain('Aabcdefghijklmn');
      expect((await listNotifiers(app.trove, owner)).find((n) => n.id === created.id)?.url).toBe(
        next,
      );
    });

    it('refuses bad bodies (422 naming the field) and private targets (400), changing nothing', async () => {
      const created = await createNotifier(app.trove, owner, { name: 'Keep', url: NTFY_URL });
      const row = await storedRow(app.trove, created.id);
      const cases: [Record<string, unknown>, string][] = [
        [{ isActive: true }, 'name'],
        [{ name: '' }, 'name'],
        [{ name: 'A', url: 'https://example.com' }, 'url'],
        [{ name: 'A', url: 7 }, 'url'],
        [{ name: 'A', isActive: 'no' }, 'isActive'],
      ];
      for (const [body, field] of cases) {
        const response = await as(app.trove, owner, 'put', `${NOTIFIERS}/${created.id}`).send(body);
        expect(response.status, JSON.stringify(body)).toBe(422);
        expect(Object.keys((response.body as { fields: object }).fields)).toEqual([field]);
      }
      const refused = await as(app.trove, owner, 'put', `${NOTIFIERS}/${created.id}`)
        .send({ name: 'A', url: 'generic+http://10.0.0.1/hook' })
        .expect(400);
      expect((refused.body as { error: string }).error).toContain('10.0.0.1 is a private address');
      expect(await storedRow(app.trove, created.id)).toEqual(row);
    });

    it("answers 404 for an unknown id, another user's notifier in the group, and another group's", async () => {
      const mine = await createNotifier(app.trove, owner, { name: 'Mine', url: NTFY_URL });
      const row = await storedRow(app.trove, mine.id);
      for (const [session, id] of [
        [owner, UNKNOWN_ID],
        [member, mine.id],
        [outsider, mine.id],
      ] as const) {
        const response = await as(app.trove, session, 'put', `${NOTIFIERS}/${id}`)
          .send({ name: 'Taken' })
          .expect(404);
        expect(response.body).toEqual({ error: `notifier ${id} not found` });
      }
      expect(await storedRow(app.trove, mine.id)).toEqual(row);
      await as(app.trove, owner, 'put', `${NOTIFIERS}/not-a-uuid`).send({ name: 'A' }).expect(400);
    });

    it('answers 401 without a valid token and 403 to a viewer', async () => {
      await expectUnauthenticated(app.trove, 'put', `${NOTIFIERS}/${UNKNOWN_ID}`, { name: 'A' });
      await as(app.trove, viewer, 'put', `${NOTIFIERS}/${UNKNOWN_ID}`)
        .send({ name: 'A' })
        .expect(403);
    });
  });

  describe('DELETE /api/v1/notifiers/{id}', () => {
    it('deletes the caller’s notifier (204)', async () => {
      const created = await createNotifier(app.trove, owner, { name: 'Gone', url: BARK_URL });
      const response = await as(app.trove, owner, 'delete', `${NOTIFIERS}/${created.id}`).expect(
        204,
      );
      expect(response.text).toBe('');
      expect(await storedRow(app.trove, created.id)).toBeUndefined();
    });

    it("answers 204 but deletes nothing for an unknown id or someone else's notifier", async () => {
      const mine = await createNotifier(app.trove, owner, { name: 'Stays', url: BARK_URL });
      await as(app.trove, owner, 'delete', `${NOTIFIERS}/${UNKNOWN_ID}`).expect(204);
      await as(app.trove, member, 'delete', `${NOTIFIERS}/${mine.id}`).expect(204);
      await as(app.trove, outsider, 'delete', `${NOTIFIERS}/${mine.id}`).expect(204);
      expect(await storedRow(app.trove, mine.id)).toBeDefined();
      await as(app.trove, owner, 'delete', `${NOTIFIERS}/not-a-uuid`).expect(400);
    });

    it('answers 401 without a valid token and 403 to a viewer', async () => {
      await expectUnauthenticated(app.trove, 'delete', `${NOTIFIERS}/${UNKNOWN_ID}`);
      await as(app.trove, viewer, 'delete', `${NOTIFIERS}/${UNKNOWN_ID}`).expect(403);
    });
  });
});
