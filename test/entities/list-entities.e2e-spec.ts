import pg from 'pg';
import { DataSource } from 'typeorm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, type Session } from '../support/factories.js';
import {
  CHILD_SUMMARY_KEYS,
  createEntity,
  expectSummaryShape,
  locationId,
  tagId,
  typeId,
} from './entity-helpers.js';

describe('GET /api/v1/entities', () => {
  let owner: Session;
  let stranger: Session;
  const ids: Record<string, string> = {};

  const list = async (query: Record<string, unknown>, session: Session = owner) => {
    const response = await app.trove.http
      .get('/api/v1/entities')
      .set('Authorization', session.authorization)
      .query(query);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as {
      page: number;
      pageSize: number;
      total: number;
      totalPrice: number;
      items: { id: string; name: string; itemCount: number }[];
    };
  };
  const names = async (query: Record<string, unknown>, session?: Session) =>
    (await list(query, session)).items.map((item) => item.name).sort();

  const app = useTestApp();
  beforeAll(async () => {
    owner = await signUp(app.trove);
    stranger = await signUp(app.trove);
    const garage = await locationId(app.trove, owner, 'Garage');
    const kitchen = await locationId(app.trove, owner, 'Kitchen');
    const electronics = await tagId(app.trove, owner, 'Electronics');
    const parentTag = await app.trove.http
      .post('/api/v1/tags')
      .set('Authorization', owner.authorization)
      .send({ name: 'Power tools' })
      .expect(201);
    const childTag = await app.trove.http
      .post('/api/v1/tags')
      .set('Authorization', owner.authorization)
      .send({ name: 'Drills', parentId: parentTag.body.id })
      .expect(201);
    ids.powerTools = parentTag.body.id;
    ids.drills = childTag.body.id;
    ids.electronics = electronics;
    ids.garage = garage;
    ids.kitchen = kitchen;
    const make = async (
      name: string,
      body: Record<string, unknown>,
      update?: Record<string, unknown>,
    ) => {
      const entity = await createEntity(app.trove, owner, { name, ...body });
      if (update) {
        await app.trove.http
          .put(`/api/v1/entities/${entity.id}`)
          .set('Authorization', owner.authorization)
          .send({ name, assetId: entity.assetId, quantity: 1, ...body, ...update })
          .expect(200);
      }
      ids[name] = entity.id;
    };
    await make(
      'Hammer drill',
      { parentId: garage, tagIds: [childTag.body.id], quantity: 2 },
      { purchasePrice: 100, serialNumber: 'HD-4711' },
    );
    await make(
      'Toaster',
      { parentId: kitchen, tagIds: [electronics] },
      { purchasePrice: 30, notes: 'Crumb tray cracked' },
    );
    await make('Old kettle', { parentId: kitchen }, { archived: true, purchasePrice: 5 });
    await make('Sold mixer', { parentId: kitchen }, { purchasePrice: 50, soldDate: '2026-01-01' });
    await make(
      'Label printer',
      {},
      { fields: [{ type: 'text', name: 'Connection', textValue: 'USB' }], manufacturer: 'Brother' },
    );
    await make('Cable', { parentId: ids['Label printer'] });
    await createEntity(app.trove, stranger, { name: 'Stranger drill' });
  });

  it('answers the page shape with child summaries, echoing -1 without paging', async () => {
    const page = await list({});
    expect(Object.keys(page).sort()).toEqual(['items', 'page', 'pageSize', 'total', 'totalPrice']);
    expect(page).toMatchObject({ page: -1, pageSize: -1, total: 5 });
    for (const item of page.items) expectSummaryShape(item, CHILD_SUMMARY_KEYS);
    expect(page.items.map((item) => item.name)).toEqual([
      'Cable',
      'Hammer drill',
      'Label printer',
      'Sold mixer',
      'Toaster',
    ]);
    expect(page.totalPrice).toBe(130);
  });

  it('pages with page and pageSize, counting every match', async () => {
    const first = await list({ page: 1, pageSize: 2 });
    const second = await list({ page: 2, pageSize: 2 });
    expect(first).toMatchObject({ page: 1, pageSize: 2, total: 5 });
    expect(first.items.map((item) => item.name)).toEqual(['Cable', 'Hammer drill']);
    expect(second.items.map((item) => item.name)).toEqual(['Label printer', 'Sold mixer']);
    expect(first.totalPrice).toBe(100);
  });

  it('searches name, description, serial, model, manufacturer, notes and custom-field values, case-insensitively', async () => {
    expect(await names({ q: 'DRILL' })).toEqual(['Hammer drill']);
    expect(await names({ q: 'hd-47' })).toEqual(['Hammer drill']);
    expect(await names({ q: 'crumb' })).toEqual(['Toaster']);
    expect(await names({ q: 'brother' })).toEqual(['Label printer']);
    expect(await names({ q: 'usb' })).toEqual(['Label printer']);
    expect(await names({ q: '100%' })).toEqual([]);
    expect(await names({ q: 'drill' }, stranger)).toEqual(['Stranger drill']);
  });

  it('combines a search with the other filters, archived and paging, counting each match once', async () => {
    // 'usb' is in a field value of one and in the name of the other; 'er' in four names.
    await createEntity(app.trove, owner, { name: 'USB hub', parentId: ids.garage });
    try {
      expect(await names({ q: 'usb' })).toEqual(['Label printer', 'USB hub']);
      expect(await names({ q: 'usb', parentIds: ids.garage })).toEqual(['USB hub']);
      expect(await names({ q: 'er', tags: ids.powerTools })).toEqual(['Hammer drill']);
      expect(await names({ q: 'er', tags: ids.powerTools, negateTags: 'true' })).toEqual([
        'Label printer',
        'Sold mixer',
        'Toaster',
      ]);
      expect(await names({ q: 'kettle' })).toEqual([]);
      expect(await names({ q: 'kettle', includeArchived: 'true' })).toEqual(['Old kettle']);
      expect(await names({ q: 'usb', fields: 'Connection=USB' })).toEqual(['Label printer']);
      const first = await list({ q: 'usb', pageSize: 1, page: 1 });
      const second = await list({ q: 'usb', pageSize: 1, page: 2 });
      expect([first.total, second.total]).toEqual([2, 2]);
      expect([...first.items, ...second.items].map((item) => item.name)).toEqual([
        'Label printer',
        'USB hub',
      ]);
    } finally {
      const hub = (await list({ q: 'usb hub' })).items[0];
      await app.trove.http
        .delete(`/api/v1/entities/${hub.id}`)
        .set('Authorization', owner.authorization)
        .expect(204);
    }
  });

  it('finds an asset id with #', async () => {
    const [row] = await app.trove.query<{ asset_id: string }>(
      'SELECT asset_id FROM entities WHERE id = $1',
      [ids.Toaster],
    );
    const padded = String(row.asset_id).padStart(6, '0');
    expect(await names({ q: `#${padded.slice(0, 3)}-${padded.slice(3)}` })).toEqual(['Toaster']);
    expect(await names({ q: `#${row.asset_id}` })).toEqual(['Toaster']);
  });

  it('filters by tag with its descendants, and negated', async () => {
    expect(await names({ tags: ids.powerTools })).toEqual(['Hammer drill']);
    expect(await names({ tags: [ids.drills, ids.electronics] })).toEqual([
      'Hammer drill',
      'Toaster',
    ]);
    expect(await names({ tags: ids.powerTools, negateTags: 'true' })).toEqual([
      'Cable',
      'Label printer',
      'Sold mixer',
      'Toaster',
    ]);
  });

  it('pages a tag filter in any order, with its whole total on every page', async () => {
    const pages = (query: Record<string, unknown>, count: number) =>
      Promise.all(
        Array.from({ length: count }, (_, k) => list({ ...query, pageSize: 1, page: k + 1 })),
      );
    const oneTag = await pages({ tags: ids.powerTools, orderBy: 'assetId' }, 2);
    expect(oneTag.map((answer) => answer.total)).toEqual([1, 1]);
    expect(oneTag.map((answer) => answer.items.map((item) => item.name))).toEqual([
      ['Hammer drill'],
      [],
    ]);
    for (const orderBy of ['name', 'assetId']) {
      const twoTags = await pages({ tags: [ids.drills, ids.electronics], orderBy }, 3);
      expect(twoTags.map((answer) => answer.total)).toEqual([2, 2, 2]);
      expect(twoTags.map((answer) => answer.items.map((item) => item.name))).toEqual([
        ['Hammer drill'],
        ['Toaster'],
        [],
      ]);
    }
  });

  it('filters by direct parent, top level, archived, custom field, and lists locations with item counts', async () => {
    expect(await names({ parentIds: ids.kitchen })).toEqual(['Sold mixer', 'Toaster']);
    expect(await names({ parentIds: [ids.kitchen, ids.garage], includeArchived: 'true' })).toEqual([
      'Hammer drill',
      'Old kettle',
      'Sold mixer',
      'Toaster',
    ]);
    expect(await names({ filterChildren: 'true' })).toEqual(['Label printer']);
    expect(await names({ fields: 'Connection=USB' })).toEqual(['Label printer']);
    expect(await names({ fields: ['Connection=Serial', 'nonsense'] })).toEqual([]);
    const locations = await list({ isLocation: 'true', q: 'kitchen' });
    expect(locations.items).toEqual([expect.objectContaining({ name: 'Kitchen', itemCount: 2 })]);
    const garage = await list({ isLocation: 'true', q: 'garage' });
    expect(garage.items[0].itemCount).toBe(2);
  });

  it('orders by name (case-insensitively), creation, update or asset id', async () => {
    const byCreated = await list({ orderBy: 'createdAt' });
    expect(byCreated.items[0].name).toBe('Cable');
    const byAsset = await list({ orderBy: 'assetId' });
    expect(byAsset.items.map((item) => item.name)).toEqual([
      'Hammer drill',
      'Toaster',
      'Sold mixer',
      'Label printer',
      'Cable',
    ]);
  });

  it('never shows another group’s entities, whatever their ids are used in', async () => {
    const theirs = await locationId(app.trove, stranger, 'Kitchen');
    const theirTag = await tagId(app.trove, stranger, 'Electronics');
    expect((await list({ parentIds: theirs })).items).toEqual([]);
    expect(await list({ tags: theirTag })).toMatchObject({ total: 0, items: [] });
    expect((await list({ tags: theirTag, negateTags: 'true' })).total).toBe(5);
    await createEntity(app.trove, stranger, { name: 'Secret', parentId: theirs });
    expect((await list({ q: 'secret' })).items).toEqual([]);
    expect((await list({ parentIds: theirs }, stranger)).items.map((item) => item.name)).toEqual([
      'Secret',
    ]);
  });

  it('ignores ids that are not UUIDs and refuses a bad page number', async () => {
    expect((await list({ parentIds: 'kitchen', tags: 'nope' })).total).toBe(5);
    const response = await app.trove.http
      .get('/api/v1/entities')
      .set('Authorization', owner.authorization)
      .query({ page: 'first' })
      .expect(422);
    expect(Object.keys(response.body.fields)).toEqual(['page']);
    await app.trove.http.get('/api/v1/entities').expect(401);
  });

  it('issues the same number of SQL statements whatever the page size', async () => {
    const location = await typeId(app.trove, owner, 'Location');
    for (let i = 0; i < 30; i++) {
      const shelf = await createEntity(app.trove, owner, {
        name: `Shelf ${i}`,
        entityTypeId: location,
        parentId: ids.garage,
      });
      await createEntity(app.trove, owner, {
        name: `Bin ${i}`,
        parentId: shelf.id,
        tagIds: [ids.electronics],
      });
    }
    const counted = async (pageSize: number): Promise<number> => {
      // Every statement, through TypeORM or straight to the pool, goes through a pg client;
      // the job queue's own connections (its workers polling meanwhile) are not the request's.
      const spy = vi.spyOn(pg.Client.prototype, 'query');
      try {
        const page = await list({ page: 1, pageSize });
        expect(page.items).toHaveLength(pageSize);
        return spy.mock.contexts.filter(
          (client) =>
            (client as { connectionParameters: { application_name?: string } }).connectionParameters
              .application_name !== 'trove-jobs',
        ).length;
      } finally {
        spy.mockRestore();
      }
    };
    expect(app.trove.app.get(DataSource).isInitialized).toBe(true);
    const small = await counted(2);
    const large = await counted(30);
    expect(large).toBe(small);
    expect(small).toBeGreaterThan(0);
    expect(small).toBeLessThanOrEqual(10);
  });
});
