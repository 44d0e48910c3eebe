import { describe, expect, it } from 'vitest';
import { useSharedApp } from '../support/api.js';
import { expectUnauthenticated } from '../support/auth-expectations.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import { makeEntity, readStatistics } from './statistics-helpers.js';

const PATH = '/api/v1/groups/statistics/locations';

describe('GET /api/v1/groups/statistics/locations', () => {
  let viewer: Session;
  let expected: { id: string; name: string; total: number }[];

  const t = useSharedApp(async ({ trove, owner, stranger }) => {
    viewer = await signUpMember(trove, owner, 'viewer');
    const garage = await makeEntity(trove, owner, { name: 'Big garage', location: true });
    const shelf = await makeEntity(trove, owner, {
      name: 'Shelf',
      location: true,
      parentId: garage.id,
      purchasePrice: 30,
    });
    const attic = await makeEntity(trove, owner, { name: 'Attic', location: true });
    const children = [
      // Direct items of the garage: quantity ignored, archived included.
      { name: 'Camera', parentId: garage.id, purchasePrice: 10, quantity: 3 },
      { name: 'Old radio', parentId: garage.id, purchasePrice: 5.5, archived: true },
      { name: 'Kettle', parentId: garage.id },
      // In the shelf: counts for the shelf only, not for the garage above it.
      { name: 'Drill', parentId: shelf.id, purchasePrice: 100 },
      // The attic holds only an item without a price: no row.
      { name: 'Rug', parentId: attic.id },
    ];
    const made = [];
    for (const spec of children) made.push(await makeEntity(trove, owner, spec));
    // An item inside an item counts for no location.
    await makeEntity(trove, owner, { name: 'Lens', parentId: made[0].id, purchasePrice: 70 });
    await makeEntity(trove, stranger, { name: 'Their shed', location: true }).then((shed) =>
      makeEntity(trove, stranger, { name: 'Their saw', parentId: shed.id, purchasePrice: 80 }),
    );

    const totals = new Map<string, { id: string; name: string; total: number }>();
    for (const location of [garage, shelf, attic]) {
      totals.set(location.id, { id: location.id, name: location.name, total: 0 });
    }
    for (const spec of children) totals.get(spec.parentId)!.total += spec.purchasePrice ?? 0;
    expected = [...totals.values()]
      .filter((row) => row.total > 0)
      .sort((a, b) => b.total - a.total);
  });

  describe('success', () => {
    it('answers 200 with the Σ purchase price of each location’s direct items, largest first', async () => {
      expect(expected.map((row) => [row.name, row.total])).toEqual([
        ['Shelf', 100],
        ['Big garage', 15.5],
      ]);
      expect(await readStatistics(t.trove, t.owner, '/locations')).toEqual(expected);
    });

    it('lets a viewer read the same rows', async () => {
      expect(await readStatistics(t.trove, viewer, '/locations')).toEqual(expected);
    });

    it('answers an empty array when no location holds a priced item', async () => {
      const fresh = await signUp(t.trove);
      expect(await readStatistics(t.trove, fresh, '/locations')).toEqual([]);
    });
  });

  describe('isolation', () => {
    it('never shows another group’s locations', async () => {
      const theirs = (await readStatistics(t.trove, t.stranger, '/locations')) as {
        name: string;
      }[];
      expect(theirs.map((row) => row.name)).toEqual(['Their shed']);
      expect(await readStatistics(t.trove, t.owner, '/locations')).toEqual(expected);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token or with a bad one', async () => {
      await expectUnauthenticated(t.trove, 'get', PATH);
    });
  });
});
