import { NotFoundException } from '@nestjs/common';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { ValidationFailedException } from '../../src/platform/errors/validation-failed.exception.js';
import { Database } from '../../src/platform/database/database.js';
import { EntityTypesService } from '../../src/inventory/entity-types/entity-types.service.js';
import { signUp, type Session } from '../support/factories.js';
import {
  as,
  authUserOf,
  createType,
  insertTemplate,
  seededType,
  typeRows,
  UNKNOWN_ID,
} from './entity-type-helpers.js';

/** The service API the entities module builds on. */
describe('EntityTypesService', () => {
  let service: EntityTypesService;
  let db: Database;
  let owner: Session;
  let outsider: Session;

  const app = useTestApp();
  beforeAll(async () => {
    service = app.trove.app.get(EntityTypesService);
    db = app.trove.app.get(Database);
    owner = await signUp(app.trove, { name: 'Ada' });
    outsider = await signUp(app.trove, { name: 'Eve' });
  });

  /** A new group of `owner` without starter locations: only "Item" and "Location". */
  const newGroup = async (name: string): Promise<string> => {
    const response = await as(app.trove, owner, 'post', '/api/v1/groups')
      .send({ name })
      .expect(201);
    return (response.body as { id: string }).id;
  };

  const typeCount = async (groupId: string, isLocation: boolean): Promise<number> =>
    (await typeRows(app.trove, groupId)).filter((row) => row.is_location === isLocation).length;

  describe('defaultType', () => {
    it('returns the oldest type of the kind, inside the caller’s transaction', async () => {
      const item = await seededType(app.trove, owner, 'Item');
      const location = await seededType(app.trove, owner, 'Location');
      await createType(app.trove, owner, { name: 'A newer item type' });

      const [forItems, forLocations] = await db.transaction(async () => [
        await service.defaultType(owner.groupId, false),
        await service.defaultType(owner.groupId, true),
      ]);

      expect(forItems).toMatchObject({ id: item.id, name: 'Item', isLocation: false });
      expect(forLocations).toMatchObject({ id: location.id, name: 'Location', isLocation: true });
    });

    it('creates "Item" when the group has no item type', async () => {
      const groupId = await newGroup('No items');
      await app.trove.query('DELETE FROM entity_types WHERE group_id = $1 AND NOT is_location', [
        groupId,
      ]);

      const created = await db.transaction(() => service.defaultType(groupId, false));

      expect(created).toMatchObject({
        id: expect.any(String),
        groupId,
        name: 'Item',
        isLocation: false,
        icon: '',
        description: '',
        defaultTemplateId: null,
        defaultTemplate: null,
      });
      expect(created.createdAt).toBeInstanceOf(Date);
      const rows = await typeRows(app.trove, groupId);
      expect(rows.filter((row) => !row.is_location)).toEqual([
        expect.objectContaining({ id: created.id, name: 'Item' }),
      ]);
      const again = await db.transaction(() => service.defaultType(groupId, false));
      expect(again.id).toBe(created.id);
    });

    it('creates "Location" when the group has no location type', async () => {
      const groupId = await newGroup('No locations');
      await app.trove.query('DELETE FROM entity_types WHERE group_id = $1 AND is_location', [
        groupId,
      ]);

      const created = await service.defaultType(groupId, true);

      expect(created).toMatchObject({ groupId, name: 'Location', isLocation: true });
      expect(await typeCount(groupId, true)).toBe(1);
    });

    it('leaves nothing behind when the caller’s transaction rolls back', async () => {
      const groupId = await newGroup('Rolled back');
      await app.trove.query('DELETE FROM entity_types WHERE group_id = $1 AND NOT is_location', [
        groupId,
      ]);

      const attempt = db.transaction(async () => {
        const created = await service.defaultType(groupId, false);
        expect(created.name).toBe('Item');
        throw new Error('caller fails later');
      });

      await expect(attempt).rejects.toThrow('caller fails later');
      expect(await typeCount(groupId, false)).toBe(0);
    });

    it('creates only one type when concurrent transactions need it', async () => {
      const groupId = await newGroup('Concurrent');
      await app.trove.query('DELETE FROM entity_types WHERE group_id = $1 AND NOT is_location', [
        groupId,
      ]);

      const types = await Promise.all(
        [1, 2, 3].map(() =>
          db.transaction(async () => {
            const type = await service.defaultType(groupId, false);
            await db.query('SELECT pg_sleep(0.05)');
            return type;
          }),
        ),
      );

      expect(new Set(types.map((type) => type.id)).size).toBe(1);
      expect(await typeCount(groupId, false)).toBe(1);
    });
  });

  describe('findOwnedOrFail', () => {
    it('returns a type of the caller’s group with its default template', async () => {
      const template = await insertTemplate(app.trove, owner.groupId, 'Tool kit');
      const type = await createType(app.trove, owner, {
        name: 'Drill',
        defaultTemplateId: template.id,
      });

      const found = await service.findOwnedOrFail(authUserOf(owner), type.id);

      expect(found).toMatchObject({
        id: type.id,
        groupId: owner.groupId,
        name: 'Drill',
        defaultTemplateId: template.id,
        defaultTemplate: expect.objectContaining({ id: template.id, name: 'Tool kit' }),
      });
    });

    it('throws 404 for an unknown or foreign id, or 422 naming the field when given', async () => {
      const foreign = await seededType(app.trove, outsider, 'Item');

      for (const id of [UNKNOWN_ID, foreign.id, 'not-a-uuid']) {
        const notFound = service.findOwnedOrFail(authUserOf(owner), id);
        await expect(notFound).rejects.toBeInstanceOf(NotFoundException);
        await expect(notFound).rejects.toThrow(`entity type ${id} not found`);

        const invalid = service.findOwnedOrFail(authUserOf(owner), id, 'entityTypeId');
        await expect(invalid).rejects.toBeInstanceOf(ValidationFailedException);
        await expect(invalid).rejects.toMatchObject({
          fields: { entityTypeId: `entity type ${id} not found` },
        });
      }
    });
  });
});
