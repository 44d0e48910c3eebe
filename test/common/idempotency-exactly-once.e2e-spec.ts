import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyOf, storedKeys } from '../attachments/attachment-helpers.js';
import { as, createEntity } from '../support/api.js';
import { signUp, type Session } from '../support/factories.js';
import { PostgresProxy } from '../support/postgres-proxy.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

const KEY = 'Idempotency-Key';
const IN_PROGRESS = { error: 'a request with this Idempotency-Key is still in progress' };
const UNAVAILABLE = { error: 'database unavailable' };
/** A statement only the transaction that stores a key's response sends. */
const STORES_A_KEY = 'INSERT INTO idempotency_keys';

/**
 * Trove reaches its database through a proxy the test controls: it cuts the connection of a
 * request's transaction right after PostgreSQL answered its COMMIT, so the change is committed
 * and its answer never reaches Trove, nor the client.
 */
describe('Idempotency-Key: exactly once, whatever happens between commit and answer', () => {
  let database: TestDatabase;
  let proxy: PostgresProxy;
  let trove: TestApp;
  let owner: Session;
  let stranger: Session;

  beforeAll(async () => {
    database = await createTestDatabase();
    const url = new URL(database.url);
    proxy = await PostgresProxy.start({ host: url.hostname, port: Number(url.port || 5432) });
    trove = await createTestApp({}, { database: { ...database, url: proxy.urlFor(database.url) } });
    owner = await signUp(trove, { name: 'Ada' });
    stranger = await signUp(trove, { name: 'Eve' });
  });
  afterAll(async () => {
    await trove?.close();
    await proxy?.close();
    await database?.drop();
  });

  /** The next request's transaction commits and then loses its connection. */
  const cutAfterCommit = (): void => {
    proxy.cutCommitAfter = STORES_A_KEY;
  };
  const storedKeyRows = (key: string) =>
    trove.query<{ user_id: string; response_status: number | null }>(
      'SELECT user_id, response_status FROM idempotency_keys WHERE key = $1',
      [key],
    );
  const entitiesNamed = (name: string) =>
    trove.query<{ id: string }>('SELECT id FROM entities WHERE name = $1', [name]);

  describe('the answer of a committed change is lost', () => {
    it('a create: the retry with the key replays it, and one entity exists', async () => {
      const key = randomUUID();
      const name = `Lost answer ${key}`;
      const cutBefore = proxy.cutCommits;
      cutAfterCommit();

      const first = await as(trove, owner, 'post', '/api/v1/entities').set(KEY, key).send({ name });

      expect(proxy.cutCommits).toBe(cutBefore + 1);
      expect(first.status).toBe(503);
      expect(first.body).toEqual(UNAVAILABLE);
      const committed = await entitiesNamed(name);
      expect(committed).toHaveLength(1);
      expect(await storedKeyRows(key)).toEqual([{ user_id: owner.id, response_status: 201 }]);

      const retry = await as(trove, owner, 'post', '/api/v1/entities').set(KEY, key).send({ name });

      expect(retry.status).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body).toMatchObject({ id: committed[0].id, name });
      expect(await entitiesNamed(name)).toEqual(committed);
      const stored = await as(trove, owner, 'get', `/api/v1/entities/${committed[0].id}`);
      expect(stored.status).toBe(200);
      expect(stored.body).toMatchObject({ id: committed[0].id, name });
      // Without the key the same request creates again: the key is what kept it to one.
      await as(trove, owner, 'post', '/api/v1/entities').send({ name }).expect(201);
      expect(await entitiesNamed(name)).toHaveLength(2);
    });

    it('an upload: the retry replays it, and the entity has one attachment', async () => {
      const entity = await createEntity(trove, owner, 'Camera');
      const key = randomUUID();
      const content = Buffer.from(`manual ${key}`);
      const upload = () =>
        as(trove, owner, 'post', `/api/v1/entities/${entity.id}/attachments`)
          .set(KEY, key)
          .field('name', 'manual.txt')
          .field('type', 'manual')
          .attach('file', content, 'manual.txt');
      const cutBefore = proxy.cutCommits;
      cutAfterCommit();

      const first = await upload();

      expect(proxy.cutCommits).toBe(cutBefore + 1);
      expect(first.status).toBe(503);
      const attachments = () =>
        trove.query<{ id: string }>('SELECT id FROM attachments WHERE entity_id = $1', [entity.id]);
      const committed = await attachments();
      expect(committed).toHaveLength(1);

      const retry = await upload();

      expect(retry.status).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body.id).toBe(entity.id);
      expect((retry.body.attachments as { id: string }[]).map((item) => item.id)).toEqual([
        committed[0].id,
      ]);
      expect(await attachments()).toEqual(committed);
      expect(await storedKeys(trove)).toContain(keyOf(content, owner.groupId));
    });

    it('a bulk change: the retry replays its count, though nothing is left to change', async () => {
      const tag = await as(trove, owner, 'post', '/api/v1/tags').send({ name: 'Lent' }).expect(201);
      const entities = await Promise.all(
        ['Bulk A', 'Bulk B', 'Bulk C'].map((name) => createEntity(trove, owner, name)),
      );
      const body = { ids: entities.map((e) => e.id), action: 'addTags', tagIds: [tag.body.id] };
      const key = randomUUID();
      const bulk = (withKey: boolean) => {
        const request = as(trove, owner, 'post', '/api/v1/entities/bulk');
        return (withKey ? request.set(KEY, key) : request).send(body);
      };
      const cutBefore = proxy.cutCommits;
      cutAfterCommit();

      const first = await bulk(true);

      expect(proxy.cutCommits).toBe(cutBefore + 1);
      expect(first.status).toBe(503);
      const links = () =>
        trove.query<{ entity_id: string }>(
          'SELECT entity_id FROM entity_tags WHERE tag_id = $1 ORDER BY entity_id',
          [tag.body.id],
        );
      const tagged = await links();
      expect(tagged).toHaveLength(3);

      const retry = await bulk(true);

      expect(retry.status).toBe(200);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body).toEqual({ updated: 3 });
      expect(await links()).toEqual(tagged);
      // Run again without the key, the change finds nothing left to do.
      const again = await bulk(false);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ updated: 0 });
    });
  });

  describe('a change that fails after writing', () => {
    it('is refused at commit by a deferred constraint, and leaves the key for a retry', async () => {
      const name = `Refused at commit ${randomUUID()}`;
      // A constraint checked only at commit, after the tag and the key's response were written.
      await trove.query(`
        CREATE FUNCTION refuse_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          RAISE EXCEPTION 'refused at commit' USING ERRCODE = '23514', CONSTRAINT = 'refused';
        END $$`);
      await trove.query(`
        CREATE CONSTRAINT TRIGGER refuse_at_commit AFTER INSERT ON tags
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_at_commit()`);
      const key = randomUUID();
      const tagsNamed = () => trove.query('SELECT id FROM tags WHERE name = $1', [name]);
      try {
        const failed = await as(trove, owner, 'post', '/api/v1/tags').set(KEY, key).send({ name });

        expect(failed.status).toBe(422);
        expect(await tagsNamed()).toEqual([]);
        expect(await storedKeyRows(key)).toEqual([]);
      } finally {
        await trove.query('DROP TRIGGER refuse_at_commit ON tags');
        await trove.query('DROP FUNCTION refuse_at_commit()');
      }

      const retried = await as(trove, owner, 'post', '/api/v1/tags').set(KEY, key).send({ name });

      expect(retried.status).toBe(201);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
      expect(retried.body).toMatchObject({ name });
      expect(await tagsNamed()).toEqual([{ id: retried.body.id }]);
      expect(await storedKeyRows(key)).toEqual([{ user_id: owner.id, response_status: 201 }]);
    });
  });

  describe('50 concurrent requests with one key', () => {
    it('create one entity; every other answer is 409 in progress or the replay', async () => {
      const key = randomUUID();
      const name = `Concurrent ${key}`;

      const responses = await Promise.all(
        Array.from({ length: 50 }, () =>
          as(trove, owner, 'post', '/api/v1/entities').set(KEY, key).send({ name }),
        ),
      );

      const created = responses.filter((response) => response.status === 201);
      const busy = responses.filter((response) => response.status === 409);
      expect(
        responses.map((response) => response.status).filter((s) => s !== 201 && s !== 409),
      ).toEqual([]);
      const originals = created.filter((r) => r.headers['idempotent-replayed'] === undefined);
      expect(originals).toHaveLength(1);
      expect(new Set(created.map((response) => response.body.id))).toEqual(
        new Set([originals[0].body.id]),
      );
      for (const response of created) expect(response.text).toBe(originals[0].text);
      for (const response of busy) expect(response.body).toEqual(IN_PROGRESS);
      const rows = await entitiesNamed(name);
      expect(rows).toEqual([{ id: originals[0].body.id }]);
      // Once the first is answered, a later one with the key is its replay.
      const later = await as(trove, owner, 'post', '/api/v1/entities').set(KEY, key).send({ name });
      expect(later.status).toBe(201);
      expect(later.headers['idempotent-replayed']).toBe('true');
      expect(later.text).toBe(originals[0].text);
    });
  });

  describe('a replay', () => {
    it('answers with the first status, content type and body, byte for byte', async () => {
      const key = randomUUID();
      const send = () =>
        as(trove, owner, 'post', '/api/v1/groups/invitations').set(KEY, key).send({ uses: 2 });
      const first = await send();
      const second = await send();

      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ uses: 2 });
      expect(second.status).toBe(200);
      expect(second.headers['content-type']).toBe(first.headers['content-type']);
      expect(second.headers['content-type']).toMatch(/^application\/json/);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.text).toBe(first.text);
      expect(await storedKeyRows(key)).toEqual([{ user_id: owner.id, response_status: 200 }]);
    });

    it('is the key’s user’s alone: another user with the key creates their own', async () => {
      const key = randomUUID();
      const mine = await as(trove, owner, 'post', '/api/v1/entities')
        .set(KEY, key)
        .send({ name: 'Mine' })
        .expect(201);
      const theirs = await as(trove, stranger, 'post', '/api/v1/entities')
        .set(KEY, key)
        .send({ name: 'Mine' })
        .expect(201);
      expect(theirs.headers['idempotent-replayed']).toBeUndefined();
      expect(theirs.body.id).not.toBe(mine.body.id);
    });

    it('is not given without a token, nor with a bad one, and nothing is written', async () => {
      const key = randomUUID();
      await trove.http.post('/api/v1/entities').set(KEY, key).send({ name: 'Anon' }).expect(401);
      await trove.http
        .post('/api/v1/entities')
        .set('Authorization', 'Bearer nonsense')
        .set(KEY, key)
        .send({ name: 'Anon' })
        .expect(401);
      expect(await storedKeyRows(key)).toEqual([]);
      expect(await entitiesNamed('Anon')).toEqual([]);
    });
  });

  describe('a bulk delete with a key', () => {
    it('deletes the files no attachment uses any more once it has committed', async () => {
      const entity = await createEntity(trove, owner, 'Doomed');
      const content = Buffer.from(`only here ${randomUUID()}`);
      await as(trove, owner, 'post', `/api/v1/entities/${entity.id}/attachments`)
        .field('name', 'manual.txt')
        .field('type', 'manual')
        .attach('file', content, 'manual.txt')
        .expect(201);
      expect(await storedKeys(trove)).toContain(keyOf(content, owner.groupId));

      await as(trove, owner, 'post', '/api/v1/entities/bulk')
        .set(KEY, randomUUID())
        .send({ ids: [entity.id], action: 'delete' })
        .expect(200, { updated: 1 });

      expect(await storedKeys(trove)).not.toContain(keyOf(content, owner.groupId));
    });

    it('refused at commit keeps the entity and its file, and its retry deletes both', async () => {
      const entity = await createEntity(trove, owner, 'Refused delete');
      const content = Buffer.from(`kept ${randomUUID()}`);
      await as(trove, owner, 'post', `/api/v1/entities/${entity.id}/attachments`)
        .field('name', 'manual.txt')
        .field('type', 'manual')
        .attach('file', content, 'manual.txt')
        .expect(201);
      await trove.query(`
        CREATE FUNCTION refuse_delete_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          RAISE EXCEPTION 'refused at commit' USING ERRCODE = '23514', CONSTRAINT = 'refused';
        END $$`);
      await trove.query(`
        CREATE CONSTRAINT TRIGGER refuse_delete_at_commit AFTER DELETE ON entities
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_delete_at_commit()`);
      const key = randomUUID();
      const body = { ids: [entity.id], action: 'delete' };
      try {
        const refused = await as(trove, owner, 'post', '/api/v1/entities/bulk')
          .set(KEY, key)
          .send(body);

        expect(refused.status).toBe(422);
        await as(trove, owner, 'get', `/api/v1/entities/${entity.id}`).expect(200);
        expect(await storedKeys(trove)).toContain(keyOf(content, owner.groupId));
        expect(await storedKeyRows(key)).toEqual([]);
      } finally {
        await trove.query('DROP TRIGGER refuse_delete_at_commit ON entities');
        await trove.query('DROP FUNCTION refuse_delete_at_commit()');
      }

      const retried = await as(trove, owner, 'post', '/api/v1/entities/bulk')
        .set(KEY, key)
        .send(body);

      expect(retried.status).toBe(200);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
      expect(retried.body).toEqual({ updated: 1 });
      await as(trove, owner, 'get', `/api/v1/entities/${entity.id}`).expect(404);
      expect(await storedKeys(trove)).not.toContain(keyOf(content, owner.groupId));
    });
  });
});
