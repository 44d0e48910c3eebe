import { describe, expect, it } from 'vitest';
import { as, type EntityBody, useSharedApp } from '../support/api.js';
import { expectUnauthenticated } from '../support/auth-expectations.js';
import { signUpMember, type Session } from '../support/factories.js';
import { makeEntity, readStatistics, type EntitySpec } from './statistics-helpers.js';

const PATH = '/api/v1/groups/statistics/purchase-price';

/** `YYYY-MM-DD` of the UTC day `offset` days from today. */
const day = (offset: number): string =>
  new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

interface ValueOverTime {
  valueAtStart: number;
  valueAtEnd: number;
  start: string;
  end: string;
  entries: { date: string; value: number; name: string }[];
}

describe('GET /api/v1/groups/statistics/purchase-price', () => {
  let viewer: Session;
  const specs: EntitySpec[] = [
    { name: 'Camera', purchasePrice: 120.25, quantity: 2 },
    { name: 'Old radio', purchasePrice: 40, archived: true },
    { name: 'Drill', purchasePrice: 60 },
    { name: 'Kettle' },
  ];
  const made: EntityBody[] = [];

  const t = useSharedApp(async ({ trove, owner, stranger }) => {
    viewer = await signUpMember(trove, owner, 'viewer');
    // A priced location is not an item: it counts nowhere.
    await makeEntity(trove, owner, { name: 'Vault', location: true, purchasePrice: 500 });
    for (const spec of specs) made.push(await makeEntity(trove, owner, spec));
    await makeEntity(trove, stranger, { name: 'Their camera', purchasePrice: 999 });
  });

  /** Entries for the items made, oldest first, as the API reports their creation. */
  async function expectedEntries(): Promise<ValueOverTime['entries']> {
    const entries = [];
    for (const [index, entity] of made.entries()) {
      const read = await as(t.trove, t.owner, 'get', `/api/v1/entities/${entity.id}`).expect(200);
      const createdAt = (read.body as { createdAt: string }).createdAt;
      entries.push({ date: createdAt, value: specs[index].purchasePrice ?? 0, name: '' });
    }
    return entries.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  }

  // Purchase prices of the non-archived items, quantity ignored.
  const liveValue = (): number =>
    specs
      .filter((spec) => !spec.archived)
      .reduce((sum, spec) => sum + (spec.purchasePrice ?? 0), 0);

  describe('success', () => {
    it('answers 200 for a range around today: every item created in it, values at both ends', async () => {
      const start = day(0);
      const end = day(1);
      const body = await readStatistics(
        t.trove,
        t.owner,
        `/purchase-price?start=${start}&end=${end}`,
      );
      expect(liveValue()).toBe(180.25);
      expect(body).toEqual({
        valueAtStart: 0,
        valueAtEnd: liveValue(),
        start: `${start}T00:00:00.000Z`,
        end: `${end}T00:00:00.000Z`,
        entries: await expectedEntries(),
      });
    });

    it('counts items created before the start in valueAtStart and leaves them out of entries', async () => {
      const start = day(1);
      const end = day(2);
      const body = await readStatistics(
        t.trove,
        t.owner,
        `/purchase-price?start=${start}&end=${end}`,
      );
      expect(body).toEqual({
        valueAtStart: liveValue(),
        valueAtEnd: liveValue(),
        start: `${start}T00:00:00.000Z`,
        end: `${end}T00:00:00.000Z`,
        entries: [],
      });
    });

    it('answers zeros and no entries for a range before anything existed', async () => {
      const body = await readStatistics(
        t.trove,
        t.owner,
        '/purchase-price?start=2020-01-01&end=2020-02-29',
      );
      expect(body).toEqual({
        valueAtStart: 0,
        valueAtEnd: 0,
        start: '2020-01-01T00:00:00.000Z',
        end: '2020-02-29T00:00:00.000Z',
        entries: [],
      });
    });

    it('accepts the first and the last day a date can name', async () => {
      const body = await readStatistics(
        t.trove,
        t.owner,
        '/purchase-price?start=0001-01-01&end=9999-12-31',
      );
      expect(body).toEqual({
        valueAtStart: 0,
        valueAtEnd: liveValue(),
        start: '0001-01-01T00:00:00.000Z',
        end: '9999-12-31T00:00:00.000Z',
        entries: await expectedEntries(),
      });
    });

    it('takes one month ago and now when no dates are given', async () => {
      const before = Date.now();
      const body = (await readStatistics(t.trove, t.owner, '/purchase-price')) as ValueOverTime;
      const after = Date.now();
      const end = Date.parse(body.end);
      expect(end).toBeGreaterThanOrEqual(before);
      expect(end).toBeLessThanOrEqual(after);
      const monthAgo = new Date(end);
      monthAgo.setUTCMonth(monthAgo.getUTCMonth() - 1);
      expect(body.start).toBe(monthAgo.toISOString());
      expect(body).toMatchObject({ valueAtStart: 0, valueAtEnd: liveValue() });
      expect(body.entries).toEqual(await expectedEntries());
    });

    it('lets a viewer read the same figures', async () => {
      const query = `/purchase-price?start=${day(0)}&end=${day(1)}`;
      expect(await readStatistics(t.trove, viewer, query)).toEqual(
        await readStatistics(t.trove, t.owner, query),
      );
    });
  });

  describe('bad input', () => {
    it.each([
      ['start=yesterday', 'start must be a date as YYYY-MM-DD'],
      ['start=2026-02-30', 'start must be a date as YYYY-MM-DD'],
      ['end=2026-1-5', 'end must be a date as YYYY-MM-DD'],
      ['end=2026-01-05T00:00:00Z', 'end must be a date as YYYY-MM-DD'],
      ['start=2026-01-01&start=2026-01-02', 'start must be a date as YYYY-MM-DD'],
      ['start=2026-03-01&end=2026-02-01', 'start must not be after end'],
    ])('answers 400 for %s', async (query, error) => {
      const response = await as(t.trove, t.owner, 'get', `${PATH}?${query}`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error });
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token or with a bad one', async () => {
      await expectUnauthenticated(t.trove, 'get', PATH);
    });
  });
});
