import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  ENTITY_TYPES,
  expectUnauthenticated,
  insertTemplate,
  listTypes,
  SUMMARY_KEYS,
  typeRows,
  typeShape,
  UNKNOWN_ID,
  validationError,
  VIEWER_ONLY_READS,
  type EntityTypeBody,
  type TemplateBody,
} from './entity-type-helpers.js';

describe('POST /api/v1/entity-types', () => {
  let owner: Session;
  let member: Session;
  let viewer: Session;
  let outsider: Session;
  let template: TemplateBody;
  let foreignTemplate: TemplateBody;

  const app = useTestApp();
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    member = await signUpMember(app.trove, owner, 'user');
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
    template = await insertTemplate(app.trove, owner.groupId, 'Tool kit', 'Drills and bits');
    foreignTemplate = await insertTemplate(app.trove, outsider.groupId, 'Eve’s kit');
  });

  const create = (session: Session, body: unknown) =>
    as(app.trove, session, 'post', ENTITY_TYPES).send(body as object);

  describe('success', () => {
    it('creates a type from a name alone, with every other field at its default', async () => {
      const response = await create(owner, { name: 'Gadget' });

      expect(response.status).toBe(201);
      expect(response.body).toEqual(typeShape({ name: 'Gadget' }));
      expect(Object.keys(response.body).sort()).toEqual(SUMMARY_KEYS);
      const body = response.body as EntityTypeBody;
      expect(body.updatedAt).toBe(body.createdAt);
      expect(await listTypes(app.trove, owner)).toContainEqual(body);
      const [row] = await app.trove.query(
        'SELECT group_id, name, description, icon, is_location, default_template_id FROM entity_types WHERE id = $1',
        [body.id],
      );
      expect(row).toEqual({
        group_id: owner.groupId,
        name: 'Gadget',
        description: '',
        icon: '',
        is_location: false,
        default_template_id: null,
      });
    });

    it('stores every field, and shows the default template', async () => {
      const response = await create(member, {
        name: 'Shelf',
        isLocation: true,
        icon: 'mdi-bookshelf',
        description: 'Open shelving',
        defaultTemplateId: template.id,
      });

      expect(response.status).toBe(201);
      expect(response.body).toEqual(
        typeShape({
          name: 'Shelf',
          isLocation: true,
          icon: 'mdi-bookshelf',
          description: 'Open shelving',
          defaultTemplateId: template.id,
          defaultTemplate: template,
        }),
      );
      expect(Object.keys(response.body).sort()).toEqual(SUMMARY_KEYS);
      expect(await listTypes(app.trove, owner)).toContainEqual(response.body);
    });

    it('trims the name and accepts names of 1 and 255 characters', async () => {
      const trimmed = await create(owner, { name: '  Box  ' }).expect(201);
      expect(trimmed.body).toEqual(typeShape({ name: 'Box' }));

      const short = await create(owner, { name: 'x' }).expect(201);
      expect(short.body).toEqual(typeShape({ name: 'x' }));

      const long = await create(owner, {
        name: 'n'.repeat(255),
        icon: 'i'.repeat(255),
        description: 'd'.repeat(1000),
      }).expect(201);
      expect(long.body).toEqual(
        typeShape({ name: 'n'.repeat(255), icon: 'i'.repeat(255), description: 'd'.repeat(1000) }),
      );
    });

    it('treats a null, empty or zero defaultTemplateId as none', async () => {
      for (const defaultTemplateId of [null, '', '00000000-0000-0000-0000-000000000000']) {
        const response = await create(owner, { name: 'Plain', defaultTemplateId }).expect(201);
        expect(response.body).toEqual(typeShape({ name: 'Plain' }));
      }
    });

    it('ignores keys it does not declare, such as id and groupId', async () => {
      const response = await create(owner, {
        name: 'Sneaky',
        id: UNKNOWN_ID,
        groupId: outsider.groupId,
        createdAt: '2000-01-01T00:00:00.000Z',
      }).expect(201);

      const body = response.body as EntityTypeBody;
      expect(body).toEqual(typeShape({ name: 'Sneaky' }));
      expect(body.id).not.toBe(UNKNOWN_ID);
      expect(body.createdAt).not.toBe('2000-01-01T00:00:00.000Z');
      expect((await listTypes(app.trove, outsider)).map((type) => type.name)).toEqual([
        'Item',
        'Location',
      ]);
    });
  });

  describe('bad input', () => {
    const expectRefused = async (
      body: unknown,
      status: number,
      expected: object,
    ): Promise<void> => {
      const before = await typeRows(app.trove, owner.groupId);
      const response = await create(owner, body);
      expect({ status: response.status, body: response.body as unknown }).toEqual({
        status,
        body: expected,
      });
      expect(await typeRows(app.trove, owner.groupId)).toEqual(before);
    };

    it('answers 422 for a missing, empty, blank, too long or non-string name', async () => {
      await expectRefused(
        { isLocation: true },
        422,
        validationError({
          name: 'name must be shorter than or equal to 255 characters; name must not be empty; name must be a string',
        }),
      );
      for (const name of ['', '   ', '\t\n']) {
        await expectRefused({ name }, 422, validationError({ name: 'name must not be empty' }));
      }
      await expectRefused(
        { name: 'x'.repeat(256) },
        422,
        validationError({ name: 'name must be shorter than or equal to 255 characters' }),
      );
      await expectRefused(
        { name: 42 },
        422,
        validationError({
          name: 'name must be shorter than or equal to 255 characters; name must be a string',
        }),
      );
      await expectRefused(
        { name: null },
        422,
        validationError({
          name: 'name must be shorter than or equal to 255 characters; name must not be empty; name must be a string',
        }),
      );
    });

    it('answers 422 for an isLocation that is not a boolean', async () => {
      for (const isLocation of ['yes', 'true', 1, null]) {
        await expectRefused(
          { name: 'Crate', isLocation },
          422,
          validationError({ isLocation: 'isLocation must be a boolean value' }),
        );
      }
    });

    it('answers 422 for a too long or non-string icon or description', async () => {
      await expectRefused(
        { name: 'Crate', icon: 'i'.repeat(256) },
        422,
        validationError({ icon: 'icon must be shorter than or equal to 255 characters' }),
      );
      await expectRefused(
        { name: 'Crate', icon: null },
        422,
        validationError({
          icon: 'icon must be shorter than or equal to 255 characters; icon must be a string',
        }),
      );
      await expectRefused(
        { name: 'Crate', description: 'd'.repeat(1001) },
        422,
        validationError({
          description: 'description must be shorter than or equal to 1000 characters',
        }),
      );
    });

    it('answers 422 for a defaultTemplateId that is not a UUID', async () => {
      for (const defaultTemplateId of ['not-a-uuid', 42]) {
        await expectRefused(
          { name: 'Crate', defaultTemplateId },
          422,
          validationError({ defaultTemplateId: 'defaultTemplateId must be a UUID' }),
        );
      }
    });

    it('answers 422 for an unknown template or another group’s template', async () => {
      for (const id of [UNKNOWN_ID, foreignTemplate.id]) {
        await expectRefused(
          { name: 'Crate', defaultTemplateId: id },
          422,
          validationError({ defaultTemplateId: `template ${id} not found` }),
        );
      }
    });

    it('answers 400 for malformed JSON', async () => {
      const before = await typeRows(app.trove, owner.groupId);
      const response = await as(app.trove, owner, 'post', ENTITY_TYPES)
        .set('Content-Type', 'application/json')
        .send('{"name": "Broken"');

      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: expect.stringMatching(/^malformed JSON body/) });
      expect(await typeRows(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token, and writes nothing', async () => {
      const before = await typeRows(app.trove, owner.groupId);
      await expectUnauthenticated(app.trove, 'post', ENTITY_TYPES, { name: 'Intruder' });
      expect(await typeRows(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('roles', () => {
    it('answers 403 to a viewer and writes nothing', async () => {
      const before = await typeRows(app.trove, owner.groupId);

      const response = await create(viewer, { name: 'By viewer' });

      expect(response.status).toBe(403);
      expect(response.body).toEqual(VIEWER_ONLY_READS);
      expect(await typeRows(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('another group', () => {
    it('creates in the caller’s own group only', async () => {
      const before = await typeRows(app.trove, owner.groupId);

      const response = await create(outsider, {
        name: 'Eve’s type',
        defaultTemplateId: foreignTemplate.id,
      }).expect(201);

      expect(response.body).toEqual(
        typeShape({
          name: 'Eve’s type',
          defaultTemplateId: foreignTemplate.id,
          defaultTemplate: foreignTemplate,
        }),
      );
      expect(await typeRows(app.trove, owner.groupId)).toEqual(before);
      expect((await listTypes(app.trove, owner)).map((type) => type.id)).not.toContain(
        (response.body as EntityTypeBody).id,
      );
    });
  });
});
