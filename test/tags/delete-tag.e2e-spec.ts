import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  createTag,
  expectUnauthenticated,
  listTags,
  readTag,
  storedTags,
  summaryOf,
  UNKNOWN_ID,
  VIEWER_ONLY_READS,
} from './tag-helpers.js';

describe('DELETE /api/v1/tags/{id}', () => {
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

  const remove = (session: Session, id: string) =>
    as(app.trove, session, 'delete', `/api/v1/tags/${id}`);

  /** Tags a few of the group's starter locations (entities) directly in the database. */
  const tagEntities = async (groupId: string, tagId: string, count: number): Promise<string[]> => {
    const entities = await app.trove.query<{ id: string }>(
      'SELECT id FROM entities WHERE group_id = $1 ORDER BY id LIMIT $2',
      [groupId, count],
    );
    for (const entity of entities) {
      await app.trove.query('INSERT INTO entity_tags (entity_id, tag_id) VALUES ($1, $2)', [
        entity.id,
        tagId,
      ]);
    }
    return entities.map((entity) => entity.id);
  };

  const entityTags = (tagId: string) =>
    app.trove.query('SELECT entity_id FROM entity_tags WHERE tag_id = $1 ORDER BY entity_id', [
      tagId,
    ]);

  describe('success', () => {
    it('answers 204, the tag is gone, its children become roots and it leaves every entity', async () => {
      const grandparent = await createTag(app.trove, owner, { name: 'Grandparent' });
      const doomed = await createTag(app.trove, owner, {
        name: 'Doomed',
        parentId: grandparent.id,
      });
      const childA = await createTag(app.trove, owner, { name: 'Child A', parentId: doomed.id });
      const childB = await createTag(app.trove, owner, { name: 'Child B', parentId: doomed.id });
      const grandchild = await createTag(app.trove, owner, {
        name: 'Grandchild',
        parentId: childA.id,
      });
      const kept = await createTag(app.trove, owner, { name: 'Kept' });
      const entities = await tagEntities(owner.groupId, doomed.id, 2);
      await tagEntities(owner.groupId, kept.id, 2);

      const response = await remove(member, doomed.id).expect(204);

      expect(response.text).toBe('');
      const missing = await as(app.trove, owner, 'get', `/api/v1/tags/${doomed.id}`);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ error: `tag ${doomed.id} not found` });
      expect((await listTags(app.trove, owner)).map((tag) => tag.id)).not.toContain(doomed.id);

      for (const child of [childA, childB]) {
        const after = await readTag(app.trove, owner, child.id);
        expect(after.parentId).toBeNull();
        expect(after.parent).toBeNull();
        expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(child.updatedAt));
      }
      expect((await readTag(app.trove, owner, childA.id)).children).toEqual([
        summaryOf(grandchild),
      ]);
      expect((await readTag(app.trove, owner, grandparent.id)).children).toEqual([]);

      expect(entities).toHaveLength(2);
      expect(await entityTags(doomed.id)).toEqual([]);
      expect(await entityTags(kept.id)).toHaveLength(2);
      const stillThere = await app.trove.query<{ count: string }>(
        'SELECT count(*) FROM entities WHERE id = ANY($1::uuid[])',
        [entities],
      );
      expect(stillThere).toEqual([{ count: '2' }]);
    });
  });

  describe('bad input', () => {
    it('answers 400 for an id that is not a UUID and 404 for an unknown or deleted id', async () => {
      const tag = await createTag(app.trove, owner, { name: 'Once' });
      const before = await storedTags(app.trove, owner.groupId);

      const malformed = await remove(owner, 'not-an-id');
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: 'invalid route key: id' });

      const unknown = await remove(owner, UNKNOWN_ID);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: `tag ${UNKNOWN_ID} not found` });
      expect(await storedTags(app.trove, owner.groupId)).toEqual(before);

      await remove(owner, tag.id).expect(204);
      const again = await remove(owner, tag.id);
      expect(again.status).toBe(404);
      expect(again.body).toEqual({ error: `tag ${tag.id} not found` });
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token, and deletes nothing', async () => {
      const tag = await createTag(app.trove, owner, { name: 'Guarded' });
      const before = await storedTags(app.trove, owner.groupId);
      await expectUnauthenticated(app.trove, 'delete', `/api/v1/tags/${tag.id}`);
      expect(await storedTags(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('roles', () => {
    it('answers 403 to a viewer and deletes nothing', async () => {
      const tag = await createTag(app.trove, owner, { name: 'Viewed' });
      const before = await storedTags(app.trove, owner.groupId);

      const response = await remove(viewer, tag.id);

      expect(response.status).toBe(403);
      expect(response.body).toEqual(VIEWER_ONLY_READS);
      expect(await storedTags(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('another group', () => {
    it('answers 404 for a tag of another group and deletes nothing', async () => {
      const tag = await createTag(app.trove, owner, { name: 'Ours' });
      const child = await createTag(app.trove, owner, { name: 'Our child', parentId: tag.id });
      await tagEntities(owner.groupId, tag.id, 1);
      const ours = await storedTags(app.trove, owner.groupId);
      const theirs = await storedTags(app.trove, outsider.groupId);

      const response = await remove(outsider, tag.id);

      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: `tag ${tag.id} not found` });
      expect(await storedTags(app.trove, owner.groupId)).toEqual(ours);
      expect(await storedTags(app.trove, outsider.groupId)).toEqual(theirs);
      expect(await entityTags(tag.id)).toHaveLength(1);
      expect((await readTag(app.trove, owner, child.id)).parentId).toBe(tag.id);
    });
  });
});
