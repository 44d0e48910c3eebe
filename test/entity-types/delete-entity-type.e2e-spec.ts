import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  createType,
  ENTITY_TYPES,
  expectUnauthenticated,
  insertEntity,
  insertTemplate,
  listTypes,
  seededType,
  typeRows,
  UNKNOWN_ID,
  VIEWER_ONLY_READS,
} from './entity-type-helpers.js';

describe('DELETE /api/v1/entity-types/{id}', () => {
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
    as(app.trove, session, 'delete', `${ENTITY_TYPES}/${id}`);

  describe('success', () => {
    it('deletes an unused type and answers 204 with no body', async () => {
      const type = await createType(app.trove, owner, { name: 'Gadget' });

      const response = await remove(member, type.id);

      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      expect((await listTypes(app.trove, owner)).map((candidate) => candidate.id)).not.toContain(
        type.id,
      );
      expect(await app.trove.query('SELECT id FROM entity_types WHERE id = $1', [type.id])).toEqual(
        [],
      );
    });

    it('keeps the type’s default template', async () => {
      const template = await insertTemplate(app.trove, owner.groupId, 'Tool kit');
      const type = await createType(app.trove, owner, {
        name: 'Drill',
        defaultTemplateId: template.id,
      });

      await remove(owner, type.id).expect(204);

      expect(
        await app.trove.query('SELECT id, name FROM entity_templates WHERE id = $1', [template.id]),
      ).toEqual([{ id: template.id, name: 'Tool kit' }]);
    });

    it('deletes a seeded type once no entity uses it', async () => {
      const group = await signUp(app.trove, { name: 'Grace' });
      const item = await seededType(app.trove, group, 'Item');

      await remove(group, item.id).expect(204);

      expect((await listTypes(app.trove, group)).map((type) => type.name)).toEqual(['Location']);
    });
  });

  describe('in use', () => {
    it('answers 409 while the seeded locations use "Location", and deletes nothing', async () => {
      const location = await seededType(app.trove, owner, 'Location');
      const before = await typeRows(app.trove, owner.groupId);

      const response = await remove(owner, location.id);

      expect(response.status).toBe(409);
      expect(response.body).toEqual({
        error: 'entity type Location is used by 8 entities; move them to another type first',
      });
      expect(await typeRows(app.trove, owner.groupId)).toEqual(before);
    });

    it('answers 409 while one entity uses "Item", and deletes it once the entity is gone', async () => {
      const item = await seededType(app.trove, owner, 'Item');
      const entityId = await insertEntity(app.trove, owner.groupId, item.id);
      const before = await typeRows(app.trove, owner.groupId);

      const response = await remove(owner, item.id);

      expect(response.status).toBe(409);
      expect(response.body).toEqual({
        error: 'entity type Item is used by 1 entity; move them to another type first',
      });
      expect(await typeRows(app.trove, owner.groupId)).toEqual(before);

      await app.trove.query('DELETE FROM entities WHERE id = $1', [entityId]);
      await remove(owner, item.id).expect(204);
    });

    it('answers 409 when an entity of the type is being stored at the same moment', async () => {
      const type = await createType(app.trove, owner, { name: 'Contested' });
      const client = new pg.Client({ connectionString: app.trove.database.url });
      await client.connect();
      try {
        await client.query('BEGIN');
        await client.query(
          'INSERT INTO entities (group_id, entity_type_id, name) VALUES ($1, $2, $3)',
          [owner.groupId, type.id, 'Racing entity'],
        );
        const pending = remove(owner, type.id).then((response) => response);
        await new Promise((resolve) => setTimeout(resolve, 300));
        await client.query('COMMIT');

        const response = await pending;

        expect(response.status).toBe(409);
        expect(response.body).toEqual({
          error: 'entity type Contested is used by 1 entity; move them to another type first',
        });
        expect(
          await app.trove.query('SELECT name FROM entity_types WHERE id = $1', [type.id]),
        ).toEqual([{ name: 'Contested' }]);
      } finally {
        await client.end();
      }
    });
  });

  describe('bad input', () => {
    it('answers 404 for an unknown id and deletes nothing', async () => {
      const before = await typeRows(app.trove, owner.groupId);

      const response = await remove(owner, UNKNOWN_ID);

      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: `entity type ${UNKNOWN_ID} not found` });
      expect(await typeRows(app.trove, owner.groupId)).toEqual(before);
    });

    it('answers 404 for a type already deleted', async () => {
      const type = await createType(app.trove, owner, { name: 'Twice' });
      await remove(owner, type.id).expect(204);

      const response = await remove(owner, type.id);

      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: `entity type ${type.id} not found` });
    });

    it('answers 400 for a path id that is not a UUID', async () => {
      const before = await typeRows(app.trove, owner.groupId);

      const response = await remove(owner, 'not-a-uuid');

      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'invalid route key: id' });
      expect(await typeRows(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token, and deletes nothing', async () => {
      const type = await createType(app.trove, owner, { name: 'Guarded' });
      const before = await typeRows(app.trove, owner.groupId);

      await expectUnauthenticated(app.trove, 'delete', `${ENTITY_TYPES}/${type.id}`);

      expect(await typeRows(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('roles', () => {
    it('answers 403 to a viewer and deletes nothing', async () => {
      const type = await createType(app.trove, owner, { name: 'Viewed' });
      const before = await typeRows(app.trove, owner.groupId);

      const response = await remove(viewer, type.id);

      expect(response.status).toBe(403);
      expect(response.body).toEqual(VIEWER_ONLY_READS);
      expect(await typeRows(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('another group', () => {
    it('answers 404 for another group’s type and deletes nothing', async () => {
      const type = await createType(app.trove, owner, { name: 'Mine' });
      const before = await typeRows(app.trove, owner.groupId);

      const response = await remove(outsider, type.id);

      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: `entity type ${type.id} not found` });
      expect(await typeRows(app.trove, owner.groupId)).toEqual(before);
      expect((await listTypes(app.trove, outsider)).map((candidate) => candidate.id)).not.toContain(
        type.id,
      );
    });
  });
});
