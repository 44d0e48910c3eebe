import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/platform/database/database.js';
import { ChangeEvents } from '../../src/platform/change-events/change-events.service.js';
import { as, createEntity, useSecondInstance, useTestApp } from '../support/api.js';
import { signUp, type Session } from '../support/factories.js';
import { openFeed, type Feed } from './feed.js';

describe('GET /api/v1/ws/events: what a group’s sockets hear', () => {
  const app = useTestApp();
  let ada: Session;
  let eve: Session;
  let adaFeed: Feed;
  let eveFeed: Feed;

  beforeAll(async () => {
    ada = await signUp(app.trove, { name: 'Ada' });
    eve = await signUp(app.trove, { name: 'Eve' });
  });

  const listen = (session: Session, baseUrl = app.trove.baseUrl): Promise<Feed> =>
    openFeed(baseUrl, { headers: { Authorization: session.authorization } });

  /** A tag created in Ada's group: once her socket hears it, everything before it has arrived. */
  const marker = async (): Promise<void> => {
    const before = adaFeed.frames.filter((frame) => frame === 'tag.mutation').length;
    await as(app.trove, ada, 'post', '/api/v1/tags')
      .send({ name: `marker ${before}` })
      .expect(201);
    await adaFeed.waitFor('tag.mutation', before + 1);
  };

  describe('one instance', () => {
    beforeAll(async () => {
      adaFeed = await listen(ada);
      eveFeed = await listen(eve);
    });
    afterEach(() => {
      adaFeed.frames.length = 0;
      eveFeed.frames.length = 0;
    });
    afterAll(async () => {
      await adaFeed.close();
      await eveFeed.close();
    });

    it('an entity created in Ada’s group reaches her socket only', async () => {
      await createEntity(app.trove, ada, 'Camera');
      await adaFeed.waitFor('entity.mutation');
      // Eve's socket would have heard it before the change she makes now.
      await as(app.trove, eve, 'post', '/api/v1/tags').send({ name: 'Eve’s' }).expect(201);
      await eveFeed.waitFor('tag.mutation');
      expect(adaFeed.events).toEqual(['entity.mutation']);
      expect(eveFeed.events).toEqual(['tag.mutation']);
    });

    it('updates, moves, duplicates and deletions of entities, and their attachments', async () => {
      const shelf = await createEntity(app.trove, ada, 'Shelf');
      const lamp = await createEntity(app.trove, ada, 'Lamp');
      await adaFeed.waitFor('entity.mutation', 2);
      await as(app.trove, ada, 'patch', `/api/v1/entities/${lamp.id}`)
        .send({ parentId: shelf.id })
        .expect(200);
      await as(app.trove, ada, 'post', `/api/v1/entities/${lamp.id}/duplicate`)
        .send({})
        .expect(201);
      await as(app.trove, ada, 'post', `/api/v1/entities/${lamp.id}/attachments`)
        .field('name', 'manual.txt')
        .field('type', 'manual')
        .attach('file', Buffer.from('read me'), 'manual.txt')
        .expect(201);
      await as(app.trove, ada, 'delete', `/api/v1/entities/${shelf.id}`).expect(204);
      await adaFeed.waitFor('entity.mutation', 6);
      await marker();
      expect(adaFeed.events).toEqual([...Array<string>(6).fill('entity.mutation'), 'tag.mutation']);
      expect(eveFeed.events).toEqual([]);
    });

    it('tag changes are tag.mutation; user settings and profile changes are user.mutation', async () => {
      await as(app.trove, ada, 'put', '/api/v1/users/self/settings')
        .send({ theme: 'dark' })
        .expect(200);
      await adaFeed.waitFor('user.mutation');
      await as(app.trove, ada, 'put', '/api/v1/users/self').send({ name: 'Ada L.' }).expect(200);
      await adaFeed.waitFor('user.mutation', 2);
      await marker();
      expect(adaFeed.events).toEqual(['user.mutation', 'user.mutation', 'tag.mutation']);
      expect(eveFeed.events).toEqual([]);
    });

    it('a refused change sends nothing', async () => {
      await as(app.trove, ada, 'post', '/api/v1/entities').send({ name: '' }).expect(422);
      await as(app.trove, ada, 'post', '/api/v1/tags')
        .send({ name: 'Orphan', parentId: '00000000-0000-4000-8000-000000000000' })
        .expect(422);
      await marker();
      expect(adaFeed.events).toEqual(['tag.mutation']);
    });

    it('a notice is delivered when its unit of work commits, never before, never on rollback', async () => {
      const db = app.trove.app.get(Database);
      const changes = app.trove.app.get(ChangeEvents);
      await expect(
        db.transaction(async () => {
          await changes.publish(ada.groupId, 'entity.mutation');
          await db.query('SELECT 1 / 0');
        }),
      ).rejects.toThrow(/division by zero/);
      await db.transaction(async () => {
        await changes.publish(ada.groupId, 'user.mutation');
        // Not delivered yet: a change committed meanwhile arrives, the notice does not.
        await marker();
        expect(adaFeed.events).toEqual(['tag.mutation']);
      });
      await adaFeed.waitFor('user.mutation');
      await marker();
      expect(adaFeed.events).toEqual(['tag.mutation', 'user.mutation', 'tag.mutation']);
      expect(eveFeed.events).toEqual([]);
    });
  });

  describe('two instances on one database', () => {
    const second = useSecondInstance(app);

    it('a change through the first instance reaches a socket on the second within a second', async () => {
      const remote = await listen(ada, second.instance.baseUrl);
      const remoteEve = await listen(eve, second.instance.baseUrl);
      try {
        await createEntity(app.trove, ada, 'Bicycle');
        await remote.waitFor('entity.mutation', 1, 1_000);
        await as(app.trove, eve, 'post', '/api/v1/tags').send({ name: 'Eve’s 2' }).expect(201);
        await remoteEve.waitFor('tag.mutation', 1, 1_000);
        expect(remote.events).toEqual(['entity.mutation']);
        expect(remoteEve.events).toEqual(['tag.mutation']);
      } finally {
        await remote.close();
        await remoteEve.close();
      }
    });
  });
});
