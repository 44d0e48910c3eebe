import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  createChain,
  createTag,
  expectUnauthenticated,
  OUT_KEYS,
  readTag,
  storedTags,
  summaryOf,
  summaryShape,
  UNKNOWN_ID,
  VIEWER_ONLY_READS,
  type TagOutBody,
} from './tag-helpers.js';

describe('PUT /api/v1/tags/{id}', () => {
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

  const update = (session: Session, id: string, body: unknown) =>
    as(app.trove, session, 'put', `/api/v1/tags/${id}`).send(body as object);

  describe('success', () => {
    it('replaces every field, moves the tag under a new parent and answers 200', async () => {
      const oldParent = await createTag(app.trove, owner, { name: 'Old parent' });
      const newParent = await createTag(app.trove, owner, { name: 'New parent' });
      const tag = await createTag(app.trove, owner, {
        name: 'Before',
        description: 'old',
        color: 'red',
        icon: 'mdi-old',
        parentId: oldParent.id,
      });
      const child = await createTag(app.trove, owner, { name: 'Kid', parentId: tag.id });

      const response = await update(member, tag.id, {
        name: 'After',
        description: 'new',
        color: 'green',
        icon: 'mdi-new',
        parentId: newParent.id,
      }).expect(200);

      expect(response.body).toEqual({
        ...summaryShape({
          id: tag.id,
          name: 'After',
          description: 'new',
          color: 'green',
          icon: 'mdi-new',
          parentId: newParent.id,
          createdAt: tag.createdAt,
        }),
        parent: summaryOf(newParent),
        children: [summaryOf(child)],
      });
      expect(Object.keys(response.body).sort()).toEqual(OUT_KEYS);
      const body = response.body as TagOutBody;
      expect(Date.parse(body.updatedAt)).toBeGreaterThan(Date.parse(tag.updatedAt));
      expect(await readTag(app.trove, owner, tag.id)).toEqual(body);
      expect((await readTag(app.trove, owner, oldParent.id)).children).toEqual([]);
      expect((await readTag(app.trove, owner, newParent.id)).children).toEqual([summaryOf(body)]);
    });

    it('is a full replacement: omitted parentId makes a root and omitted texts become ""', async () => {
      const parent = await createTag(app.trove, owner, { name: 'Parent' });
      const tag = await createTag(app.trove, owner, {
        name: 'Full',
        description: 'text',
        color: 'red',
        icon: 'mdi-x',
        parentId: parent.id,
      });

      const response = await update(owner, tag.id, { name: 'Bare' }).expect(200);

      expect(response.body).toEqual({
        ...summaryShape({ id: tag.id, name: 'Bare', createdAt: tag.createdAt }),
        parent: null,
        children: [],
      });
      expect((await readTag(app.trove, owner, parent.id)).children).toEqual([]);
    });

    it('makes a root for a null parentId and for the zero UUID, and ignores undeclared keys', async () => {
      const parent = await createTag(app.trove, owner, { name: 'P' });
      const tag = await createTag(app.trove, owner, { name: 'T', parentId: parent.id });

      for (const parentId of [null, '00000000-0000-0000-0000-000000000000']) {
        await update(owner, tag.id, { name: 'T', parentId: parent.id }).expect(200);
        const response = await update(owner, tag.id, {
          name: 'T',
          parentId,
          id: UNKNOWN_ID,
          groupId: outsider.groupId,
        }).expect(200);
        expect(response.body).toEqual({
          ...summaryShape({ id: tag.id, name: 'T', createdAt: tag.createdAt }),
          parent: null,
          children: [],
        });
      }
    });

    it('moves a whole subtree that stays within five levels', async () => {
      const [a, b] = await createChain(app.trove, owner, ['A', 'B']);
      const [, , c3] = await createChain(app.trove, owner, ['C1', 'C2', 'C3']);

      const response = await update(owner, a.id, { name: 'A', parentId: c3.id }).expect(200);

      expect(response.body).toEqual({
        ...summaryOf(a),
        parentId: c3.id,
        updatedAt: expect.any(String),
        parent: summaryOf(c3),
        children: [summaryOf(b)],
      });
    });
  });

  describe('bad input', () => {
    it('answers 422 for a bad name, bad texts or a parentId that is not a UUID, writing nothing', async () => {
      const tag = await createTag(app.trove, owner, { name: 'Stable' });
      const before = await storedTags(app.trove, owner.groupId);

      const cases: [unknown, Record<string, string>][] = [
        [{}, { name: 'name must be longer than or equal to 1 characters; name must be a string' }],
        [{ name: '' }, { name: 'name must be longer than or equal to 1 characters' }],
        [
          { name: 'x'.repeat(256) },
          { name: 'name must be shorter than or equal to 255 characters' },
        ],
        [
          { name: 'Ok', description: 'd'.repeat(1001) },
          { description: 'description must be shorter than or equal to 1000 characters' },
        ],
        [
          { name: 'Ok', color: 'c'.repeat(256), icon: 'i'.repeat(256) },
          {
            color: 'color must be shorter than or equal to 255 characters',
            icon: 'icon must be shorter than or equal to 255 characters',
          },
        ],
        [{ name: 'Ok', parentId: 'root' }, { parentId: 'parentId must be a UUID' }],
      ];
      for (const [body, fields] of cases) {
        const response = await update(owner, tag.id, body);
        expect({ body, status: response.status, response: response.body }).toEqual({
          body,
          status: 422,
          response: { error: 'Validation Error', fields },
        });
      }
      expect(await storedTags(app.trove, owner.groupId)).toEqual(before);
    });

    it('answers 422 for an unknown parent and writes nothing', async () => {
      const tag = await createTag(app.trove, owner, { name: 'Stays root' });
      const before = await storedTags(app.trove, owner.groupId);

      const response = await update(owner, tag.id, { name: 'Moved', parentId: UNKNOWN_ID });

      expect(response.status).toBe(422);
      expect(response.body).toEqual({
        error: 'Validation Error',
        fields: { parentId: `tag ${UNKNOWN_ID} not found` },
      });
      expect(await storedTags(app.trove, owner.groupId)).toEqual(before);
    });

    it('answers 400 for an id that is not a UUID and 404 for an unknown id, writing nothing', async () => {
      const before = await storedTags(app.trove, owner.groupId);

      const malformed = await update(owner, 'not-an-id', { name: 'X' });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: 'invalid route key: id' });

      const unknown = await update(owner, UNKNOWN_ID, { name: 'X' });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: `tag ${UNKNOWN_ID} not found` });

      expect(await storedTags(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token, and writes nothing', async () => {
      const tag = await createTag(app.trove, owner, { name: 'Guarded' });
      const before = await storedTags(app.trove, owner.groupId);
      await expectUnauthenticated(app.trove, 'put', `/api/v1/tags/${tag.id}`, { name: 'Hijacked' });
      expect(await storedTags(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('roles', () => {
    it('answers 403 to a viewer and writes nothing', async () => {
      const tag = await createTag(app.trove, owner, { name: 'Viewed' });
      const before = await storedTags(app.trove, owner.groupId);

      const response = await update(viewer, tag.id, { name: 'By viewer' });

      expect(response.status).toBe(403);
      expect(response.body).toEqual(VIEWER_ONLY_READS);
      expect(await storedTags(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('another group', () => {
    it('answers 404 for a tag of another group and changes nothing', async () => {
      const tag = await createTag(app.trove, owner, { name: 'Ours' });
      const ours = await storedTags(app.trove, owner.groupId);
      const theirs = await storedTags(app.trove, outsider.groupId);

      const response = await update(outsider, tag.id, { name: 'Taken' });

      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: `tag ${tag.id} not found` });
      expect(await storedTags(app.trove, owner.groupId)).toEqual(ours);
      expect(await storedTags(app.trove, outsider.groupId)).toEqual(theirs);
    });

    it('answers 422 for a parent from another group and changes nothing', async () => {
      const tag = await createTag(app.trove, owner, { name: 'Homebody' });
      const foreign = await createTag(app.trove, outsider, { name: 'Elsewhere' });
      const ours = await storedTags(app.trove, owner.groupId);
      const theirs = await storedTags(app.trove, outsider.groupId);

      const response = await update(owner, tag.id, { name: 'Homebody', parentId: foreign.id });

      expect(response.status).toBe(422);
      expect(response.body).toEqual({
        error: 'Validation Error',
        fields: { parentId: `tag ${foreign.id} not found` },
      });
      expect(await storedTags(app.trove, owner.groupId)).toEqual(ours);
      expect(await storedTags(app.trove, outsider.groupId)).toEqual(theirs);
    });
  });
});
