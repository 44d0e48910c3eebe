import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  createType,
  ENTITY_TYPES,
  expectUnauthenticated,
  insertTemplate,
  listTypes,
  SUMMARY_KEYS,
  typeRows,
  typeShape,
} from './entity-type-helpers.js';

describe('GET /api/v1/entity-types', () => {
  let owner: Session;
  let viewer: Session;
  let outsider: Session;

  const app = useTestApp();
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
  });

  describe('success', () => {
    it('lists the two types a new group is seeded with', async () => {
      const response = await as(app.trove, outsider, 'get', ENTITY_TYPES).expect(200);

      expect(response.body).toEqual([
        typeShape({ name: 'Item', isLocation: false }),
        typeShape({ name: 'Location', isLocation: true }),
      ]);
      for (const type of response.body as object[]) {
        expect(Object.keys(type).sort()).toEqual(SUMMARY_KEYS);
      }
      const rows = await typeRows(app.trove, outsider.groupId);
      expect(rows.map((row) => row.id).sort()).toEqual(
        (response.body as { id: string }[]).map((type) => type.id).sort(),
      );
    });

    it('sorts by name, then id, and shows each type’s default template', async () => {
      const template = await insertTemplate(
        app.trove,
        owner.groupId,
        'Tool kit',
        'Drills and bits',
      );
      const shelf = await createType(app.trove, owner, {
        name: 'Shelf',
        isLocation: true,
        icon: 'mdi-bookshelf',
      });
      const drill = await createType(app.trove, owner, {
        name: 'Drill',
        description: 'Power tools',
        defaultTemplateId: template.id,
      });
      const twinA = await createType(app.trove, owner, { name: 'Twin' });
      const twinB = await createType(app.trove, owner, { name: 'Twin' });
      const twins = [twinA, twinB].sort((a, b) => (a.id < b.id ? -1 : 1));

      const response = await as(app.trove, owner, 'get', ENTITY_TYPES).expect(200);

      expect(response.body).toEqual([
        typeShape({
          id: drill.id,
          name: 'Drill',
          description: 'Power tools',
          defaultTemplateId: template.id,
          defaultTemplate: template,
          createdAt: drill.createdAt,
          updatedAt: drill.updatedAt,
        }),
        typeShape({ name: 'Item' }),
        typeShape({ name: 'Location', isLocation: true }),
        typeShape({
          id: shelf.id,
          name: 'Shelf',
          isLocation: true,
          icon: 'mdi-bookshelf',
          createdAt: shelf.createdAt,
          updatedAt: shelf.updatedAt,
        }),
        ...twins.map((twin) => typeShape({ ...twin, name: 'Twin' })),
      ]);
    });

    it('lets a viewer read the list', async () => {
      expect(await listTypes(app.trove, viewer)).toEqual(await listTypes(app.trove, owner));
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token', async () => {
      await expectUnauthenticated(app.trove, 'get', ENTITY_TYPES);
    });
  });

  describe('another group', () => {
    it('shows only the caller’s own group’s types', async () => {
      const own = await listTypes(app.trove, owner);
      const theirs = await listTypes(app.trove, outsider);

      expect(theirs.map((type) => type.name)).toEqual(['Item', 'Location']);
      const ownIds = new Set(own.map((type) => type.id));
      expect(theirs.some((type) => ownIds.has(type.id))).toBe(false);
    });

    it('refuses a group the caller does not belong to, chosen with X-Tenant', async () => {
      const response = await as(app.trove, outsider, 'get', ENTITY_TYPES).set(
        'X-Tenant',
        owner.groupId,
      );

      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        error: 'user does not have access to the requested tenant',
      });
    });
  });
});
