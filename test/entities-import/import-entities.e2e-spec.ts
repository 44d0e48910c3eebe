import { describe, expect, it } from 'vitest';
import { as, useSharedApp } from '../support/api.js';
import { signUpMember } from '../support/factories.js';
import {
  BAD_TOKEN,
  NO_TOKEN,
  VIEWER_ONLY_READS,
  expectUnauthenticated,
} from '../support/auth-expectations.js';
import {
  IMPORT_URL,
  csv,
  entitiesNamed,
  groupCounts,
  idByRef,
  importCsv,
  importOk,
} from './import-helpers.js';

const EVERY_COLUMN = [
  'HB.import_ref',
  'HB.location',
  'HB.name',
  'HB.description',
  'HB.notes',
  'HB.quantity',
  'HB.insured',
  'HB.archived',
  'HB.asset_id',
  'HB.serial_number',
  'HB.model_number',
  'HB.manufacturer',
  'HB.lifetime_warranty',
  'HB.warranty_expires',
  'HB.warranty_details',
  'HB.purchase_time',
  'HB.purchase_from',
  'HB.purchase_price',
  'HB.sold_time',
  'HB.sold_to',
  'HB.sold_price',
  'HB.sold_notes',
  'HB.labels',
  'HB.field.Colour',
  'HB.field.Voltage',
  'HB.url',
  'HB.not_a_column',
];

describe('POST /api/v1/entities/import', () => {
  const t = useSharedApp();

  const get = async (id: string) => {
    const response = await as(t.trove, t.owner, 'get', `/api/v1/entities/${id}`);
    expect(response.status).toBe(200);
    return response.body;
  };

  it('imports every column and alias, making nested locations and missing tags', async () => {
    const before = await groupCounts(t.trove, t.owner.groupId);
    await importOk(
      t.trove,
      t.owner,
      csv([
        EVERY_COLUMN,
        [
          'drill-1',
          'Home / Workshop',
          'Drill',
          'Cordless drill',
          'Charge monthly',
          '2',
          'true',
          'false',
          '000-120',
          'SN-1',
          'DR-18',
          'Makita',
          't',
          '2030-01-31',
          'Keep receipt',
          '03/15/2026',
          'Hardware store',
          '129.99',
          '',
          '',
          '0',
          '',
          'Important; Power tools',
          'Teal',
          '18V',
          'https://example.com/item/1',
          'ignored',
        ],
        [
          'saw-1',
          ' Home /Workshop/ Shelf ',
          'Saw',
          '',
          '',
          '1.5',
          '0',
          'TRUE',
          '',
          '',
          '',
          '',
          'F',
          '2031/02/03',
          '',
          '2025-12-01T10:00:00Z',
          '',
          '',
          '2026-06-30',
          'Neighbour',
          '40.5',
          'Sold cheap',
          'Power tools',
          '',
          '',
          '',
          '',
        ],
      ]),
    );
    const after = await groupCounts(t.trove, t.owner.groupId);
    // Home, Workshop, Shelf, Drill and Saw; one new tag; two tag links; two fields.
    expect(after).toEqual({
      ...before,
      entities: before.entities + 5,
      tags: before.tags + 1,
      entityTags: before.entityTags + 3,
      fields: before.fields + 2,
    });

    // Locations are made in path order with the next asset ids above the file's highest.
    expect(await entitiesNamed(t.trove, t.owner.groupId, 'Home')).toEqual([
      { id: expect.any(String), parent: null, isLocation: true, assetId: 121 },
    ]);
    expect(await entitiesNamed(t.trove, t.owner.groupId, 'Workshop')).toEqual([
      { id: expect.any(String), parent: 'Home', isLocation: true, assetId: 122 },
    ]);
    expect(await entitiesNamed(t.trove, t.owner.groupId, 'Shelf')).toEqual([
      { id: expect.any(String), parent: 'Workshop', isLocation: true, assetId: 123 },
    ]);

    const drill = await get(await idByRef(t.trove, t.owner.groupId, 'drill-1'));
    expect(drill).toMatchObject({
      name: 'Drill',
      description: 'Cordless drill',
      notes: 'Charge monthly',
      quantity: 2,
      insured: true,
      archived: false,
      assetId: '000-120',
      serialNumber: 'SN-1',
      modelNumber: 'DR-18',
      manufacturer: 'Makita',
      lifetimeWarranty: true,
      warrantyExpires: '2030-01-31',
      warrantyDetails: 'Keep receipt',
      purchaseDate: '2026-03-15',
      purchaseFrom: 'Hardware store',
      purchasePrice: 129.99,
      soldDate: '',
      soldTo: '',
      soldPrice: 0,
      soldNotes: '',
      parent: { name: 'Workshop' },
      location: { name: 'Workshop' },
      entityType: { name: 'Item', isLocation: false },
    });
    expect(drill.tags.map((tag: { name: string }) => tag.name).sort()).toEqual([
      'Important',
      'Power tools',
    ]);
    expect(drill.fields).toEqual([
      {
        id: expect.any(String),
        type: 'text',
        name: 'Colour',
        textValue: 'Teal',
        numberValue: 0,
        booleanValue: false,
      },
      {
        id: expect.any(String),
        type: 'text',
        name: 'Voltage',
        textValue: '18V',
        numberValue: 0,
        booleanValue: false,
      },
    ]);

    const saw = await get(await idByRef(t.trove, t.owner.groupId, 'saw-1'));
    expect(saw).toMatchObject({
      name: 'Saw',
      description: '',
      quantity: 1.5,
      insured: false,
      archived: true,
      assetId: '000-124',
      lifetimeWarranty: false,
      warrantyExpires: '2031-02-03',
      purchaseDate: '2025-12-01',
      purchasePrice: 0,
      soldDate: '2026-06-30',
      soldTo: 'Neighbour',
      soldPrice: 40.5,
      soldNotes: 'Sold cheap',
      parent: { name: 'Shelf' },
      fields: [],
    });
    expect(saw.tags.map((tag: { name: string }) => tag.name)).toEqual(['Power tools']);

    // The new tag is a top-level tag; the starter tag was matched, not copied.
    const tags = await t.trove.query<{ name: string; parent_id: string | null }>(
      `SELECT name, parent_id FROM tags WHERE group_id = $1 AND name IN ('Important', 'Power tools')
       ORDER BY name`,
      [t.owner.groupId],
    );
    expect(tags).toEqual([
      { name: 'Important', parent_id: null },
      { name: 'Power tools', parent_id: null },
    ]);
  });

  it('reads a tab-separated file with the canonical column names, into existing locations', async () => {
    const garage = await entitiesNamed(t.trove, t.owner.groupId, 'Garage');
    await importOk(
      t.trove,
      t.owner,
      [
        'HB.name\tHB.location\tHB.tags\tHB.purchase_date\tHB.sold_date\tHB.quantity',
        'Bolts, M6\tGarage / Bin 3\tHardware\t2024-02-29\t\t100',
        'Washers\tGarage\t\t\t2026-01-02\t',
      ].join('\r\n') + '\r\n',
    );
    expect(await entitiesNamed(t.trove, t.owner.groupId, 'Garage')).toEqual(garage);
    expect(await entitiesNamed(t.trove, t.owner.groupId, 'Bin 3')).toEqual([
      expect.objectContaining({ parent: 'Garage', isLocation: true }),
    ]);
    const [bolts] = await entitiesNamed(t.trove, t.owner.groupId, 'Bolts, M6');
    expect(await get(bolts.id)).toMatchObject({
      name: 'Bolts, M6',
      quantity: 100,
      purchaseDate: '2024-02-29',
      soldDate: '',
      parent: { name: 'Bin 3' },
      tags: [expect.objectContaining({ name: 'Hardware' })],
    });
    const [washers] = await entitiesNamed(t.trove, t.owner.groupId, 'Washers');
    expect(await get(washers.id)).toMatchObject({
      quantity: 0,
      soldDate: '2026-01-02',
      parent: { id: garage[0].id, name: 'Garage' },
      tags: [],
    });
  });

  it('re-importing a ref replaces that entity: no duplicate, asset id kept, omitted columns reset', async () => {
    await importOk(
      t.trove,
      t.owner,
      csv([
        [
          'HB.import_ref',
          'HB.location',
          'HB.name',
          'HB.notes',
          'HB.tags',
          'HB.field.Size',
          'HB.insured',
        ],
        ['lamp-7', 'Attic', 'Lamp', 'Old', 'Lighting', 'Large', 'true'],
      ]),
    );
    const id = await idByRef(t.trove, t.owner.groupId, 'lamp-7');
    const first = await get(id);
    const before = await groupCounts(t.trove, t.owner.groupId);
    await importOk(
      t.trove,
      t.owner,
      csv([
        ['HB.import_ref', 'HB.location', 'HB.name', 'HB.asset_id', 'HB.field.Bulb'],
        ['lamp-7', 'Basement', 'Desk lamp', '', 'E27'],
      ]),
    );
    expect(await idByRef(t.trove, t.owner.groupId, 'lamp-7')).toBe(id);
    expect(await groupCounts(t.trove, t.owner.groupId)).toEqual({
      ...before,
      entityTags: before.entityTags - 1,
    });
    const second = await get(id);
    expect(second).toMatchObject({
      name: 'Desk lamp',
      notes: '',
      insured: false,
      assetId: first.assetId,
      tags: [],
      parent: { name: 'Basement' },
      fields: [expect.objectContaining({ name: 'Bulb', textValue: 'E27' })],
    });
    expect(second.fields).toHaveLength(1);

    await importOk(
      t.trove,
      t.owner,
      csv([
        ['HB.import_ref', 'HB.location', 'HB.name', 'HB.asset_id'],
        ['lamp-7', 'Basement', 'Desk lamp', '000-900'],
      ]),
    );
    expect(await get(id)).toMatchObject({ assetId: '000-900', fields: [] });
  });

  it('nests entities under the entity with their HB.parent_import_ref, before or after them', async () => {
    await importOk(
      t.trove,
      t.owner,
      csv([
        ['HB.import_ref', 'HB.parent_import_ref', 'HB.location', 'HB.name'],
        ['screw-1', 'box-1', 'Office', 'Screw'],
        ['box-1', '', 'Office', 'Screw box'],
        ['lid-1', 'box-1', 'Office', 'Lid'],
      ]),
    );
    const box = await idByRef(t.trove, t.owner.groupId, 'box-1');
    expect(await get(await idByRef(t.trove, t.owner.groupId, 'screw-1'))).toMatchObject({
      parent: { id: box, name: 'Screw box' },
      location: { name: 'Office' },
    });
    expect(await get(await idByRef(t.trove, t.owner.groupId, 'lid-1'))).toMatchObject({
      parent: { id: box },
    });
    // A later file may name a parent imported before.
    await importOk(
      t.trove,
      t.owner,
      csv([
        ['HB.import_ref', 'HB.parent_import_ref', 'HB.location', 'HB.name'],
        ['nut-1', 'screw-1', 'Office', 'Nut'],
      ]),
    );
    expect(await get(await idByRef(t.trove, t.owner.groupId, 'nut-1'))).toMatchObject({
      parent: { name: 'Screw' },
    });
  });

  it('a row whose path is a location other rows name describes that location', async () => {
    await importOk(
      t.trove,
      t.owner,
      csv([
        ['HB.location', 'HB.name', 'HB.description', 'HB.asset_id'],
        ['', 'Cellar', 'Under the house', '000-700'],
        ['Cellar', 'Rack', 'Wine rack', '000-701'],
        ['Cellar / Rack', 'Bottle', '', '000-702'],
      ]),
    );
    expect(await entitiesNamed(t.trove, t.owner.groupId, 'Cellar')).toEqual([
      { id: expect.any(String), parent: null, isLocation: true, assetId: 700 },
    ]);
    const [rack] = await entitiesNamed(t.trove, t.owner.groupId, 'Rack');
    expect(rack).toEqual({
      id: expect.any(String),
      parent: 'Cellar',
      isLocation: true,
      assetId: 701,
    });
    expect(await get(rack.id)).toMatchObject({ description: 'Wine rack' });
    expect(await entitiesNamed(t.trove, t.owner.groupId, 'Bottle')).toEqual([
      { id: expect.any(String), parent: 'Rack', isLocation: false, assetId: 702 },
    ]);
  });

  it('another group’s refs and locations are never matched, and its users cannot see the import', async () => {
    await importOk(
      t.trove,
      t.stranger,
      csv([
        ['HB.import_ref', 'HB.location', 'HB.name'],
        ['secret-1', 'Vault', 'Gold'],
      ]),
    );
    const strangerGold = await idByRef(t.trove, t.stranger.groupId, 'secret-1');
    await importOk(
      t.trove,
      t.owner,
      csv([
        ['HB.import_ref', 'HB.location', 'HB.name'],
        ['secret-1', 'Vault', 'Brass'],
      ]),
    );
    const ownBrass = await idByRef(t.trove, t.owner.groupId, 'secret-1');
    expect(ownBrass).not.toBe(strangerGold);
    expect(await entitiesNamed(t.trove, t.owner.groupId, 'Vault')).toHaveLength(1);
    expect(await entitiesNamed(t.trove, t.stranger.groupId, 'Vault')).toHaveLength(1);
    const gold = await as(t.trove, t.stranger, 'get', `/api/v1/entities/${strangerGold}`).expect(
      200,
    );
    expect(gold.body).toMatchObject({ name: 'Gold', parent: { name: 'Vault' } });

    const hidden = await as(t.trove, t.stranger, 'get', `/api/v1/entities/${ownBrass}`);
    expect(hidden.status).toBe(404);
    const list = await as(t.trove, t.stranger, 'get', '/api/v1/entities?q=Brass').expect(200);
    expect(list.body.total).toBe(0);
  });

  it('refuses viewers (403), and callers without a valid token (401), writing nothing', async () => {
    const viewer = await signUpMember(t.trove, t.owner, 'viewer');
    const before = await groupCounts(t.trove, t.owner.groupId);
    const file = csv([
      ['HB.location', 'HB.name'],
      ['Attic', 'Fan'],
    ]);
    const refused = await importCsv(t.trove, viewer, file);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(VIEWER_ONLY_READS);

    await expectUnauthenticated(t.trove, 'post', IMPORT_URL);
    const bare = await t.trove.http.post(IMPORT_URL).attach('csv', Buffer.from(file), 'a.csv');
    expect(bare.status).toBe(401);
    expect(bare.body).toEqual(NO_TOKEN);
    const forged = await t.trove.http
      .post(IMPORT_URL)
      .set('Authorization', 'Bearer not-a-token')
      .attach('csv', Buffer.from(file), 'a.csv');
    expect(forged.status).toBe(401);
    expect(forged.body).toEqual(BAD_TOKEN);
    expect(await groupCounts(t.trove, t.owner.groupId)).toEqual(before);
  });
});
