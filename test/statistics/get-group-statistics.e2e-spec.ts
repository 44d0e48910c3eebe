import { describe, expect, it } from 'vitest';
import { as, useSharedApp } from '../support/api.js';
import { expectUnauthenticated } from '../support/auth-expectations.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import { makeEntity, makeTag, readStatistics, type EntitySpec } from './statistics-helpers.js';

const PATH = '/api/v1/groups/statistics';

describe('GET /api/v1/groups/statistics', () => {
  let viewer: Session;
  let expected: Record<string, number>;

  const t = useSharedApp(async ({ trove, owner, stranger }) => {
    viewer = await signUpMember(trove, owner, 'viewer');
    const seededTags = await as(trove, owner, 'get', '/api/v1/tags').expect(200);
    const seededLocations = await as(
      trove,
      owner,
      'get',
      '/api/v1/entities?isLocation=true',
    ).expect(200);

    const shelf = await makeEntity(trove, owner, { name: 'Shelf', location: true });
    const tag = await makeTag(trove, owner, 'Valuable');
    const items: EntitySpec[] = [
      { name: 'Camera', purchasePrice: 10.5, quantity: 2, lifetimeWarranty: true, tagIds: [tag] },
      { name: 'Drill', purchasePrice: 3, quantity: 4, warrantyExpires: '2099-01-31' },
      { name: 'Old radio', purchasePrice: 100, archived: true, lifetimeWarranty: true },
      { name: 'Kettle', purchasePrice: 0, warrantyExpires: '2000-01-31', parentId: shelf.id },
      { name: 'Box', quantity: 0.5, purchasePrice: 8, parentId: shelf.id },
    ];
    for (const spec of items) await makeEntity(trove, owner, spec);
    // A stranger's group with entities of every kind, none of which may count.
    await makeEntity(trove, stranger, { name: 'Their shed', location: true });
    await makeTag(trove, stranger, 'Theirs');
    await makeEntity(trove, stranger, {
      name: 'Their camera',
      purchasePrice: 999,
      quantity: 3,
      lifetimeWarranty: true,
    });

    const live = items.filter((item) => !item.archived);
    expected = {
      totalUsers: 2,
      totalItems: live.length,
      totalLocations: (seededLocations.body as { total: number }).total + 1,
      totalTags: (seededTags.body as unknown[]).length + 1,
      totalItemPrice: live.reduce(
        (sum, item) => sum + (item.purchasePrice ?? 0) * (item.quantity ?? 1),
        0,
      ),
      totalWithWarranty: live.filter(
        (item) =>
          item.lifetimeWarranty === true ||
          (item.warrantyExpires !== undefined && new Date(item.warrantyExpires) > new Date()),
      ).length,
    };
  });

  describe('success', () => {
    it('answers 200 with the group’s totals as Homebox defines them', async () => {
      expect(expected).toEqual({
        totalUsers: 2,
        totalItems: 4,
        totalLocations: expect.any(Number) as number,
        totalTags: expect.any(Number) as number,
        totalItemPrice: 37,
        totalWithWarranty: 2,
      });
      expect(await readStatistics(t.trove, t.owner, '')).toEqual(expected);
    });

    it('lets a viewer read the same totals', async () => {
      expect(await readStatistics(t.trove, viewer, '')).toEqual(expected);
    });

    it('answers zeros but the one member for a new group with nothing of its own', async () => {
      const fresh = await signUp(t.trove);
      const stats = (await readStatistics(t.trove, fresh, '')) as Record<string, number>;
      expect(stats).toMatchObject({
        totalUsers: 1,
        totalItems: 0,
        totalItemPrice: 0,
        totalWithWarranty: 0,
      });
    });
  });

  describe('isolation', () => {
    it('never counts another group’s members or entities', async () => {
      await signUpMember(t.trove, t.stranger, 'user');
      await makeEntity(t.trove, t.stranger, { name: 'Their drill', purchasePrice: 50 });
      expect(await readStatistics(t.trove, t.owner, '')).toEqual(expected);
    });
  });

  describe('tenant', () => {
    it('answers for the group X-Tenant names', async () => {
      const other = await as(t.trove, t.owner, 'post', '/api/v1/groups')
        .send({ name: 'Workshop' })
        .expect(201);
      const groupId = (other.body as { id: string }).id;
      await as(t.trove, t.owner, 'post', '/api/v1/entities', groupId)
        .send({ name: 'Lathe' })
        .expect(201);
      const response = await as(t.trove, t.owner, 'get', PATH, groupId).expect(200);
      expect(response.body).toEqual({
        totalUsers: 1,
        totalItems: 1,
        totalLocations: 0,
        totalTags: 0,
        totalItemPrice: 0,
        totalWithWarranty: 0,
      });
      expect(await readStatistics(t.trove, t.owner, '')).toEqual(expected);
    });

    it('answers 403 to a user of another group naming this one', async () => {
      const response = await as(t.trove, t.stranger, 'get', PATH, t.owner.groupId);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        error: 'user does not have access to the requested tenant',
      });
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token or with a bad one', async () => {
      await expectUnauthenticated(t.trove, 'get', PATH);
    });
  });
});
