import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  createTag,
  expectUnauthenticated,
  listTags,
  OUT_KEYS,
  summaryOf,
  summaryShape,
  UNKNOWN_ID,
  type TagOutBody,
} from './tag-helpers.js';

describe('GET /api/v1/tags/{id}', () => {
  let owner: Session;
  let viewer: Session;
  let outsider: Session;
  let parent: TagOutBody;
  let tag: TagOutBody;
  let childB: TagOutBody;
  let childA: TagOutBody;
  let grandchild: TagOutBody;

  const app = useTestApp();
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
    parent = await createTag(app.trove, owner, { name: 'Hardware' });
    tag = await createTag(app.trove, owner, {
      name: 'Storage',
      description: 'Disks and drives',
      color: 'blue',
      icon: 'mdi-harddisk',
      parentId: parent.id,
    });
    childB = await createTag(app.trove, owner, { name: 'ssd', parentId: tag.id });
    childA = await createTag(app.trove, owner, { name: 'HDD', parentId: tag.id });
    grandchild = await createTag(app.trove, owner, { name: 'NVMe', parentId: childB.id });
  });

  const get = (session: Session, id: string) => as(app.trove, session, 'get', `/api/v1/tags/${id}`);

  describe('success', () => {
    it('answers the tag with its parent and its direct children sorted by name', async () => {
      const response = await get(owner, tag.id).expect(200);

      expect(response.body).toEqual({
        ...summaryShape({
          id: tag.id,
          name: 'Storage',
          description: 'Disks and drives',
          color: 'blue',
          icon: 'mdi-harddisk',
          parentId: parent.id,
          createdAt: tag.createdAt,
          updatedAt: tag.updatedAt,
        }),
        parent: summaryOf(parent),
        children: [summaryOf(childA), summaryOf(childB)],
      });
      expect(Object.keys(response.body).sort()).toEqual(OUT_KEYS);
      expect(response.body).not.toHaveProperty('children.0.children');
      expect(JSON.stringify(response.body)).not.toContain(grandchild.id);
    });

    it('answers a root tag with a null parent and a leaf with no children', async () => {
      const root = await get(owner, parent.id).expect(200);
      expect(root.body).toEqual({
        ...summaryOf(parent),
        parent: null,
        children: [summaryOf(tag)],
      });

      const leaf = await get(owner, grandchild.id).expect(200);
      expect(leaf.body).toEqual({
        ...summaryOf(grandchild),
        parent: summaryOf(childB),
        children: [],
      });
    });

    it('answers a viewer too', async () => {
      const response = await get(viewer, tag.id).expect(200);
      expect(response.body).toEqual((await get(owner, tag.id).expect(200)).body);
    });
  });

  describe('bad input', () => {
    it('answers 400 for an id that is not a UUID and 404 for an unknown id', async () => {
      const malformed = await get(owner, 'not-an-id');
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: 'invalid route key: id' });

      const unknown = await get(owner, UNKNOWN_ID);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: `tag ${UNKNOWN_ID} not found` });
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token', async () => {
      await expectUnauthenticated(app.trove, 'get', `/api/v1/tags/${tag.id}`);
    });
  });

  describe('another group', () => {
    it('answers 404 for a tag of another group, both ways', async () => {
      const theirs = await createTag(app.trove, outsider, { name: 'Private' });

      const intoOurs = await get(outsider, tag.id);
      expect(intoOurs.status).toBe(404);
      expect(intoOurs.body).toEqual({ error: `tag ${tag.id} not found` });

      const intoTheirs = await get(owner, theirs.id);
      expect(intoTheirs.status).toBe(404);
      expect(intoTheirs.body).toEqual({ error: `tag ${theirs.id} not found` });

      expect((await listTags(app.trove, outsider)).map((t) => t.id)).not.toContain(tag.id);
    });
  });
});
