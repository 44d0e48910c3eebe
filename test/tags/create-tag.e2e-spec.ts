import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  createTag,
  expectUnauthenticated,
  listTags,
  OUT_KEYS,
  readTag,
  storedTags,
  summaryOf,
  summaryShape,
  UNKNOWN_ID,
  VIEWER_ONLY_READS,
  type TagOutBody,
} from './tag-helpers.js';

describe('POST /api/v1/tags', () => {
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

  const create = (session: Session, body: unknown) =>
    as(app.trove, session, 'post', '/api/v1/tags').send(body as object);

  describe('success', () => {
    it('creates a root tag with every field and answers 201 with the tag', async () => {
      const response = await create(owner, {
        name: 'Tools',
        description: 'Hand and power tools',
        color: '#ff8800',
        icon: 'mdi-hammer',
      }).expect(201);

      expect(response.body).toEqual({
        ...summaryShape({
          name: 'Tools',
          description: 'Hand and power tools',
          color: '#ff8800',
          icon: 'mdi-hammer',
        }),
        parent: null,
        children: [],
      });
      expect(Object.keys(response.body).sort()).toEqual(OUT_KEYS);
      const body = response.body as TagOutBody;
      expect(body.createdAt).toBe(body.updatedAt);
      expect(await readTag(app.trove, owner, body.id)).toEqual(body);
      const [row] = await app.trove.query('SELECT group_id, parent_id FROM tags WHERE id = $1', [
        body.id,
      ]);
      expect(row).toEqual({ group_id: owner.groupId, parent_id: null });
    });

    it('defaults omitted texts to "", trims the name and nests under a parent of the group', async () => {
      const parent = await createTag(app.trove, owner, { name: 'Workshop' });

      const response = await create(member, { name: '  Drills  ', parentId: parent.id }).expect(
        201,
      );

      const child = response.body as TagOutBody;
      expect(response.body).toEqual({
        ...summaryShape({ name: 'Drills', parentId: parent.id }),
        parent: summaryOf(parent),
        children: [],
      });
      expect((await readTag(app.trove, owner, parent.id)).children).toEqual([summaryOf(child)]);
    });

    it('makes a root for a null parentId and for Homebox’s zero UUID', async () => {
      for (const parentId of [null, '00000000-0000-0000-0000-000000000000']) {
        const response = await create(owner, { name: 'Loose', parentId }).expect(201);
        expect(response.body).toEqual({
          ...summaryShape({ name: 'Loose' }),
          parent: null,
          children: [],
        });
      }
    });

    it('ignores keys it does not declare, such as id, groupId and createdAt', async () => {
      const response = await create(owner, {
        name: 'Sneaky',
        id: UNKNOWN_ID,
        groupId: outsider.groupId,
        createdAt: '2000-01-01T00:00:00.000Z',
        children: [UNKNOWN_ID],
      }).expect(201);

      const body = response.body as TagOutBody;
      expect(body).toEqual({ ...summaryShape({ name: 'Sneaky' }), parent: null, children: [] });
      expect(body.id).not.toBe(UNKNOWN_ID);
      expect(body.createdAt).not.toBe('2000-01-01T00:00:00.000Z');
      expect((await listTags(app.trove, owner)).map((tag) => tag.id)).toContain(body.id);
      expect((await listTags(app.trove, outsider)).map((tag) => tag.name)).not.toContain('Sneaky');
    });

    it('accepts names, descriptions, colors and icons of the largest allowed size', async () => {
      const body = {
        name: 'n'.repeat(255),
        description: 'd'.repeat(1000),
        color: 'c'.repeat(255),
        icon: 'i'.repeat(255),
      };
      const response = await create(owner, body).expect(201);
      expect(response.body).toEqual({ ...summaryShape(body), parent: null, children: [] });
    });
  });

  describe('bad input', () => {
    const expectRefused = async (
      body: unknown,
      fields: Record<string, string>,
      session: Session = owner,
    ): Promise<void> => {
      const before = await storedTags(app.trove, owner.groupId);
      const response = await create(session, body);
      expect({ body, status: response.status, response: response.body }).toEqual({
        body,
        status: 422,
        response: { error: 'Validation Error', fields },
      });
      expect(await storedTags(app.trove, owner.groupId)).toEqual(before);
    };

    it('answers 422 for a missing, empty, blank, too long or non-string name', async () => {
      const wrongType = 'name must be longer than or equal to 1 characters; name must be a string';
      await expectRefused({}, { name: wrongType });
      await expectRefused({ name: null }, { name: wrongType });
      await expectRefused(
        { name: 42 },
        {
          name: 'name must be longer than or equal to 1 and shorter than or equal to 255 characters; name must be a string',
        },
      );
      await expectRefused(
        { name: '' },
        { name: 'name must be longer than or equal to 1 characters' },
      );
      await expectRefused(
        { name: '   ' },
        { name: 'name must be longer than or equal to 1 characters' },
      );
      await expectRefused(
        { name: 'x'.repeat(256) },
        { name: 'name must be shorter than or equal to 255 characters' },
      );
    });

    it('answers 422 for texts that are too long or not strings', async () => {
      await expectRefused(
        {
          name: 'Long',
          description: 'd'.repeat(1001),
          color: 'c'.repeat(256),
          icon: 'i'.repeat(256),
        },
        {
          description: 'description must be shorter than or equal to 1000 characters',
          color: 'color must be shorter than or equal to 255 characters',
          icon: 'icon must be shorter than or equal to 255 characters',
        },
      );
      await expectRefused(
        { name: 'Nulls', description: null, color: 7, icon: ['x'] },
        {
          description:
            'description must be shorter than or equal to 1000 characters; description must be a string',
          color: 'color must be shorter than or equal to 255 characters; color must be a string',
          icon: 'icon must be shorter than or equal to 255 characters; icon must be a string',
        },
      );
    });

    it('answers 422 for a parentId that is not a UUID or not a tag', async () => {
      await expectRefused(
        { name: 'Orphan', parentId: 'nope' },
        { parentId: 'parentId must be a UUID' },
      );
      await expectRefused({ name: 'Orphan', parentId: 5 }, { parentId: 'parentId must be a UUID' });
      await expectRefused(
        { name: 'Orphan', parentId: UNKNOWN_ID },
        { parentId: `tag ${UNKNOWN_ID} not found` },
      );
    });

    it('answers 400 for malformed JSON and writes nothing', async () => {
      const before = await storedTags(app.trove, owner.groupId);
      const response = await as(app.trove, owner, 'post', '/api/v1/tags')
        .set('Content-Type', 'application/json')
        .send('{"name": "Broken"');
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: expect.stringMatching(/^malformed JSON body/) });
      expect(await storedTags(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token, and writes nothing', async () => {
      const before = await storedTags(app.trove, owner.groupId);
      await expectUnauthenticated(app.trove, 'post', '/api/v1/tags', { name: 'Intruder' });
      expect(await storedTags(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('roles', () => {
    it('answers 403 to a viewer and writes nothing', async () => {
      const before = await storedTags(app.trove, owner.groupId);
      const response = await create(viewer, { name: 'By viewer' });
      expect(response.status).toBe(403);
      expect(response.body).toEqual(VIEWER_ONLY_READS);
      expect(await storedTags(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('another group', () => {
    it('answers 422 for a parent from another group and writes nothing in either group', async () => {
      const foreign = await createTag(app.trove, outsider, { name: 'Eve’s' });
      const theirs = await storedTags(app.trove, outsider.groupId);
      const ours = await storedTags(app.trove, owner.groupId);

      const response = await create(owner, { name: 'Infiltrator', parentId: foreign.id });

      expect(response.status).toBe(422);
      expect(response.body).toEqual({
        error: 'Validation Error',
        fields: { parentId: `tag ${foreign.id} not found` },
      });
      expect(await storedTags(app.trove, outsider.groupId)).toEqual(theirs);
      expect(await storedTags(app.trove, owner.groupId)).toEqual(ours);
      expect((await readTag(app.trove, outsider, foreign.id)).children).toEqual([]);
    });

    it('creates the tag in the caller’s group only', async () => {
      const tag = await createTag(app.trove, outsider, { name: 'Only Eve' });
      expect((await listTags(app.trove, outsider)).map((t) => t.id)).toContain(tag.id);
      expect((await listTags(app.trove, owner)).map((t) => t.id)).not.toContain(tag.id);
    });
  });
});
