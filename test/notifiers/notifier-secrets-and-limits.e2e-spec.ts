import { beforeAll, describe, expect, it } from 'vitest';
import {
  decryptUrl,
  deriveKey,
  NOTIFIER_KEY_SECRET,
} from '../../src/operations/notifiers/notifier-url-cipher.js';
import { NotifiersService } from '../../src/operations/notifiers/notifiers.service.js';
import { useTestApp } from '../support/api.js';
import { signUp, type Session } from '../support/factories.js';
import { as, createNotifier, listNotifiers, NOTIFIERS, storedRow } from './notifier-helpers.js';

const URL_WITH_SECRET = 'gotify://93.184.215.14/Aabcdefghijklmn';

describe('the notifier URL key', () => {
  describe('when TROVE_NOTIFIER_ENCRYPTION_KEY is set', () => {
    const app = useTestApp({ TROVE_NOTIFIER_ENCRYPTION_KEY: 'a long configured secret' });

    it('encrypts with a key derived from it and keeps none in the database', async () => {
      const owner = await signUp(app.trove);
      const created = await createNotifier(app.trove, owner, { name: 'G', url: URL_WITH_SECRET });
      const row = (await storedRow(app.trove, created.id))!;
      const key = deriveKey(Buffer.from('a long configured secret'));
      expect(decryptUrl(key, created.id, row.url_encrypted as string)).toBe(URL_WITH_SECRET);
      expect(
        await app.trove.query('SELECT name FROM server_secrets WHERE name = $1', [
          NOTIFIER_KEY_SECRET,
        ]),
      ).toEqual([]);
    });
  });

  describe('when it is not set', () => {
    const app = useTestApp();

    it('shows a URL that no longer decrypts as "" (no error), and a new URL can be given', async () => {
      const owner = await signUp(app.trove);
      const created = await createNotifier(app.trove, owner, {
        name: 'Lost',
        url: URL_WITH_SECRET,
      });
      await app.trove.query(
        "UPDATE notifiers SET url_encrypted = 'v1.' || repeat('A', 60) WHERE id = $1",
        [created.id],
      );
      expect(await listNotifiers(app.trove, owner)).toEqual([{ ...created, url: '' }]);
      const fixed = await as(app.trove, owner, 'put', `${NOTIFIERS}/${created.id}`)
        .send({ name: 'Lost', url: 'bark://key@api.day.app' })
        .expect(200);
      expect(fixed.body).toMatchObject({ url: 'bark://key@api.day.app' });
    });

    it('encrypts with a key generated once and kept among the server secrets', async () => {
      const owner = await signUp(app.trove);
      const created = await createNotifier(app.trove, owner, { name: 'G', url: URL_WITH_SECRET });
      const [secret] = await app.trove.query<{ value: Buffer }>(
        'SELECT value FROM server_secrets WHERE name = $1',
        [NOTIFIER_KEY_SECRET],
      );
      expect(secret.value).toHaveLength(32);
      const row = (await storedRow(app.trove, created.id))!;
      expect(decryptUrl(deriveKey(secret.value), created.id, row.url_encrypted as string)).toBe(
        URL_WITH_SECRET,
      );
    });
  });
});

describe('POST /api/v1/notifiers/test: rate limit (default 10 a minute)', () => {
  const app = useTestApp();
  let first: Session;
  let second: Session;

  beforeAll(async () => {
    first = await signUp(app.trove, { name: 'First' });
    second = await signUp(app.trove, { name: 'Second' });
  });

  it('answers 429 with Retry-After past 10 test messages a minute, per user and per address', async () => {
    for (let sent = 0; sent < 10; sent++) {
      await as(app.trove, first, 'post', `${NOTIFIERS}/test`)
        .send({ url: 'bark://key@api.day.app' })
        .expect(422);
    }
    const limited = await as(app.trove, first, 'post', `${NOTIFIERS}/test`)
      .send({ url: 'bark://key@api.day.app' })
      .expect(429);
    expect(limited.body).toEqual({ error: 'too many test messages; try again later' });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    // Another user from the same client address is limited too (the address is spent).
    await as(app.trove, second, 'post', `${NOTIFIERS}/test`)
      .send({ url: 'bark://key@api.day.app' })
      .expect(429);
  });
});

describe('notifier URLs stored in clear by an earlier version', () => {
  const app = useTestApp();
  let owner: Session;

  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Legacy' });
  });

  it('are encrypted at start-up and read back unchanged', async () => {
    const url = 'ntfy://legacy:pw@ntfy.example.com/old-topic';
    const [{ id }] = await app.trove.query<{ id: string }>(
      `INSERT INTO notifiers (group_id, user_id, name, url_plaintext)
       VALUES ($1, $2, 'Old', $3) RETURNING id`,
      [owner.groupId, owner.id, url],
    );
    expect((await listNotifiers(app.trove, owner)).map((notifier) => notifier.url)).toEqual([url]);

    await app.trove.app.get(NotifiersService).onApplicationBootstrap();

    const row = (await storedRow(app.trove, id))!;
    expect(row.url_plaintext).toBeNull();
    expect(row.url_encrypted).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain('old-topic');
    expect(await listNotifiers(app.trove, owner)).toEqual([
      expect.objectContaining({ id, name: 'Old', url, isActive: true }),
    ]);
  });
});
