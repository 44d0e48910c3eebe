import { describe, expect, it } from 'vitest';
import { useSharedApp } from '../support/api.js';
import { expectUnauthenticated } from '../support/auth-expectations.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import { makeEntity, makeTag, readStatistics, type EntitySpec } from './statistics-helpers.js';

const PATH = '/api/v1/groups/statistics/tags';

describe('GET /api/v1/groups/statistics/tags', () => {
  let viewer: Session;
  let expected: { id: string; name: string; total: number }[];

  const t = useSharedApp(async ({ trove, owner, stranger }) => {
    viewer = await signUpMember(trove, owner, 'viewer');
    const tags = {
      valuable: await makeTag(trove, owner, 'Valuable'),
      cheap: await makeTag(trove, owner, 'Cheap'),
      unused: await makeTag(trove, owner, 'Unused'),
    };
    const specs: EntitySpec[] = [
      // Quantity ignored, archived included, locations included.
      { name: 'Camera', purchasePrice: 10, quantity: 3, tagIds: [tags.valuable] },
      { name: 'Old radio', purchasePrice: 5.25, archived: true, tagIds: [tags.valuable] },
      { name: 'Safe', location: true, purchasePrice: 7, tagIds: [tags.valuable, tags.cheap] },
      { name: 'Pencil', tagIds: [tags.cheap] },
    ];
    for (const spec of specs) await makeEntity(trove, owner, spec);
    const theirs = await makeTag(trove, stranger, 'Valuable');
    await makeEntity(trove, stranger, {
      name: 'Their camera',
      purchasePrice: 999,
      tagIds: [theirs],
    });

    // Every tag carrying at least one entity, with the Σ of their purchase prices.
    const names: Record<string, string> = {
      [tags.valuable]: 'Valuable',
      [tags.cheap]: 'Cheap',
      [tags.unused]: 'Unused',
    };
    const totals = new Map<string, number>();
    for (const spec of specs) {
      for (const id of spec.tagIds ?? []) {
        totals.set(id, (totals.get(id) ?? 0) + (spec.purchasePrice ?? 0));
      }
    }
    expected = [...totals.entries()]
      .map(([id, total]) => ({ id, name: names[id], total }))
      .sort((a, b) => b.total - a.total);
  });

  describe('success', () => {
    it('answers 200 with the Σ purchase price of the entities carrying each tag, largest first', async () => {
      expect(expected.map((row) => [row.name, row.total])).toEqual([
        ['Valuable', 22.25],
        ['Cheap', 7],
      ]);
      expect(await readStatistics(t.trove, t.owner, '/tags')).toEqual(expected);
    });

    it('lets a viewer read the same rows', async () => {
      expect(await readStatistics(t.trove, viewer, '/tags')).toEqual(expected);
    });

    it('answers an empty array when no tag is on any entity', async () => {
      const fresh = await signUp(t.trove);
      expect(await readStatistics(t.trove, fresh, '/tags')).toEqual([]);
    });
  });

  describe('isolation', () => {
    it('never counts another group’s tags or entities', async () => {
      expect(await readStatistics(t.trove, t.stranger, '/tags')).toEqual([
        { id: expect.any(String) as string, name: 'Valuable', total: 999 },
      ]);
      expect(await readStatistics(t.trove, t.owner, '/tags')).toEqual(expected);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token or with a bad one', async () => {
      await expectUnauthenticated(t.trove, 'get', PATH);
    });
  });
});
