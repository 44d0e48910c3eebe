import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  createType,
  ENTITY_TYPES,
  expectUnauthenticated,
  insertTemplate,
  listTypes,
  seededType,
  SUMMARY_KEYS,
  typeRows,
  typeShape,
  UNKNOWN_ID,
  validationError,
  VIEWER_ONLY_READS,
  type EntityTypeBody,
  type TemplateBody,
} from './entity-type-helpers.js';

describe('PUT /api/v1/entity-types/{id}', () => {
  let owner: Session;
  let member: Session;
  let viewer: Session;
  let outsider: Session;
  let template: TemplateBody;
  let otherTemplate: TemplateBody;
  let foreignTemplate: TemplateBody;
  let type: EntityTypeBody;

  const app = useTestApp();
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    member = await signUpMember(app.trove, owner, 'user');
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
    template = await insertTemplate(app.trove, owner.groupId, 'Tool kit', 'Drills and bits');
    otherTemplate = await insertTemplate(app.trove, owner.groupId, 'Pantry');
    foreignTemplate = await insertTemplate(app.trove, outsider.groupId, 'Eve’s kit');
  });

  beforeEach(async () => {
    type = await createType(app.trove, owner, {
      name: 'Drill',
      isLocation: true,
      icon: 'mdi-drill',
      description: 'Power tools',
      defaultTemplateId: template.id,
    });
  });

  const update = (session: Session, id: string, body: unknown) =>
    as(app.trove, session, 'put', `${ENTITY_TYPES}/${id}`).send(body as object);

  const rowOf = async (id: string) =>
    (await app.trove.query('SELECT * FROM entity_types WHERE id = $1', [id]))[0];

  describe('success', () => {
    it('replaces every field and answers 200 with the summary', async () => {
      const response = await update(member, type.id, {
        id: type.id,
        name: 'Cordless drill',
        isLocation: false,
        icon: 'mdi-battery',
        description: 'Battery tools',
        defaultTemplateId: otherTemplate.id,
      });

      expect(response.status).toBe(200);
      expect(response.body).toEqual(
        typeShape({
          id: type.id,
          name: 'Cordless drill',
          isLocation: false,
          icon: 'mdi-battery',
          description: 'Battery tools',
          defaultTemplateId: otherTemplate.id,
          defaultTemplate: otherTemplate,
          createdAt: type.createdAt,
        }),
      );
      expect(Object.keys(response.body).sort()).toEqual(SUMMARY_KEYS);
      const body = response.body as EntityTypeBody;
      expect(Date.parse(body.updatedAt)).toBeGreaterThan(Date.parse(type.updatedAt));
      expect(await listTypes(app.trove, owner)).toContainEqual(body);
    });

    it('resets omitted isLocation, icon and defaultTemplateId, and keeps the description', async () => {
      const response = await update(owner, type.id, { name: 'Drill' }).expect(200);

      expect(response.body).toEqual(
        typeShape({
          id: type.id,
          name: 'Drill',
          description: 'Power tools',
          createdAt: type.createdAt,
        }),
      );
      expect(await rowOf(type.id)).toMatchObject({
        is_location: false,
        icon: '',
        description: 'Power tools',
        default_template_id: null,
      });
      expect(
        await app.trove.query('SELECT id FROM entity_templates WHERE id = $1', [template.id]),
      ).toEqual([{ id: template.id }]);
    });

    it('clears the default template for null, "" and the zero UUID', async () => {
      for (const defaultTemplateId of [null, '', '00000000-0000-0000-0000-000000000000']) {
        await update(owner, type.id, {
          name: 'Drill',
          defaultTemplateId: template.id,
        }).expect(200);

        const response = await update(owner, type.id, {
          name: 'Drill',
          isLocation: true,
          icon: 'mdi-drill',
          defaultTemplateId,
        }).expect(200);

        expect(response.body).toEqual(
          typeShape({
            id: type.id,
            name: 'Drill',
            isLocation: true,
            icon: 'mdi-drill',
            description: 'Power tools',
            createdAt: type.createdAt,
          }),
        );
      }
    });

    it('accepts back what GET returned', async () => {
      const before = (await listTypes(app.trove, owner)).find(
        (candidate) => candidate.id === type.id,
      );

      const response = await update(owner, type.id, before).expect(200);

      expect(response.body).toEqual({ ...before, updatedAt: expect.any(String) });
    });

    it('ignores the id in the body: the path wins', async () => {
      const item = await seededType(app.trove, owner, 'Item');

      const response = await update(owner, type.id, { id: item.id, name: 'Hammer drill' }).expect(
        200,
      );

      expect((response.body as EntityTypeBody).id).toBe(type.id);
      expect(await seededType(app.trove, owner, 'Item')).toEqual(item);
      expect((await rowOf(type.id)).name).toBe('Hammer drill');
    });

    it('may change the kind of a type that entities use', async () => {
      const location = await seededType(app.trove, owner, 'Location');

      const response = await update(owner, location.id, { name: 'Place' }).expect(200);

      expect(response.body).toEqual(
        typeShape({ id: location.id, name: 'Place', createdAt: location.createdAt }),
      );
      await update(owner, location.id, { name: 'Location', isLocation: true }).expect(200);
    });
  });

  describe('bad input', () => {
    const expectRefused = async (
      id: string,
      body: unknown,
      status: number,
      expected: object,
    ): Promise<void> => {
      const before = await typeRows(app.trove, owner.groupId);
      const response = await update(owner, id, body);
      expect({ status: response.status, body: response.body as unknown }).toEqual({
        status,
        body: expected,
      });
      expect(await typeRows(app.trove, owner.groupId)).toEqual(before);
    };

    it('answers 422 for a missing, empty, blank, too long or non-string name', async () => {
      await expectRefused(
        type.id,
        { isLocation: false },
        422,
        validationError({
          name: 'name must be shorter than or equal to 255 characters; name must not be empty; name must be a string',
        }),
      );
      for (const name of ['', '   ']) {
        await expectRefused(
          type.id,
          { name },
          422,
          validationError({ name: 'name must not be empty' }),
        );
      }
      await expectRefused(
        type.id,
        { name: 'x'.repeat(256) },
        422,
        validationError({ name: 'name must be shorter than or equal to 255 characters' }),
      );
      await expectRefused(
        type.id,
        { name: ['Drill'] },
        422,
        validationError({
          name: 'name must be shorter than or equal to 255 characters; name must be a string',
        }),
      );
    });

    it('answers 422 for an isLocation that is not a boolean', async () => {
      for (const isLocation of ['yes', 0, null]) {
        await expectRefused(
          type.id,
          { name: 'Drill', isLocation },
          422,
          validationError({ isLocation: 'isLocation must be a boolean value' }),
        );
      }
    });

    it('answers 422 for a too long icon or description', async () => {
      await expectRefused(
        type.id,
        { name: 'Drill', icon: 'i'.repeat(256), description: 'd'.repeat(1001) },
        422,
        validationError({
          icon: 'icon must be shorter than or equal to 255 characters',
          description: 'description must be shorter than or equal to 1000 characters',
        }),
      );
    });

    it('answers 422 for a defaultTemplateId that is not a UUID, unknown, or another group’s', async () => {
      await expectRefused(
        type.id,
        { name: 'Drill', defaultTemplateId: 'abc' },
        422,
        validationError({ defaultTemplateId: 'defaultTemplateId must be a UUID' }),
      );
      for (const id of [UNKNOWN_ID, foreignTemplate.id]) {
        await expectRefused(
          type.id,
          { name: 'Renamed', defaultTemplateId: id },
          422,
          validationError({ defaultTemplateId: `template ${id} not found` }),
        );
      }
    });

    it('answers 404 for an unknown id', async () => {
      await expectRefused(UNKNOWN_ID, { name: 'Ghost' }, 404, {
        error: `entity type ${UNKNOWN_ID} not found`,
      });
    });

    it('answers 400 for a path id that is not a UUID', async () => {
      await expectRefused('not-a-uuid', { name: 'Ghost' }, 400, {
        error: 'invalid route key: id',
      });
    });

    it('answers 400 for malformed JSON', async () => {
      const before = await typeRows(app.trove, owner.groupId);
      const response = await as(app.trove, owner, 'put', `${ENTITY_TYPES}/${type.id}`)
        .set('Content-Type', 'application/json')
        .send('{"name": ');

      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: expect.stringMatching(/^malformed JSON body/) });
      expect(await typeRows(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token, and writes nothing', async () => {
      const before = await typeRows(app.trove, owner.groupId);
      await expectUnauthenticated(app.trove, 'put', `${ENTITY_TYPES}/${type.id}`, {
        name: 'Stolen',
      });
      expect(await typeRows(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('roles', () => {
    it('answers 403 to a viewer and writes nothing', async () => {
      const before = await typeRows(app.trove, owner.groupId);

      const response = await update(viewer, type.id, { name: 'By viewer' });

      expect(response.status).toBe(403);
      expect(response.body).toEqual(VIEWER_ONLY_READS);
      expect(await typeRows(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('another group', () => {
    it('answers 404 for another group’s type and changes nothing', async () => {
      const before = await typeRows(app.trove, owner.groupId);

      const response = await update(outsider, type.id, {
        name: 'Taken over',
        defaultTemplateId: foreignTemplate.id,
      });

      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: `entity type ${type.id} not found` });
      expect(await typeRows(app.trove, owner.groupId)).toEqual(before);
      expect((await listTypes(app.trove, outsider)).map((candidate) => candidate.name)).toEqual([
        'Item',
        'Location',
      ]);
    });

    it('does not let a body id reach another group’s type', async () => {
      const theirs = await seededType(app.trove, outsider, 'Item');

      await update(owner, type.id, { id: theirs.id, name: 'Mine' }).expect(200);

      expect(await seededType(app.trove, outsider, 'Item')).toEqual(theirs);
    });
  });
});
