import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { binary, getEntity } from '../attachments/attachment-helpers.js';
import { as, useTestApp } from '../support/api.js';
import { signUp, type Session } from '../support/factories.js';
import {
  homeboxCollection,
  writeHomeboxZip,
  type HomeboxCollection,
} from '../support/homebox-zip.js';
import { importZip, restoreZip, type ExportBody } from './backup-helpers.js';

describe('POST /api/v1/group/import with a Homebox export zip (schema version 1)', () => {
  const app = useTestApp({ TROVE_THUMBNAIL_ENABLED: 'false' });
  let owner: Session;
  let collection: HomeboxCollection;
  let zip: Buffer;
  let job: ExportBody;
  /** The restored entities' ids, by name. */
  let ids: Record<string, string>;

  const zipOf = async (changed: HomeboxCollection): Promise<Buffer> => {
    const file = await writeHomeboxZip(changed);
    try {
      return await readFile(file);
    } finally {
      await rm(path.dirname(file), { recursive: true, force: true });
    }
  };

  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    collection = homeboxCollection();
    zip = await zipOf(collection);
    job = await restoreZip(app.trove, owner, zip);
    const rows = await app.trove.query<{ id: string; name: string }>(
      'SELECT id, name FROM entities WHERE group_id = $1',
      [owner.groupId],
    );
    ids = Object.fromEntries(rows.map((row) => [row.name, row.id]));
  });

  const get = (url: string) => as(app.trove, owner, 'get', url).expect(200);

  it('completes, replacing the seed data with the zip’s entities and tags', async () => {
    expect(job).toEqual({
      id: job.id,
      groupId: owner.groupId,
      kind: 'import',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      status: 'completed',
      progress: 100,
      sizeBytes: zip.length,
    });
    expect(Object.keys(ids).sort()).toEqual(['Cordless drill', 'Drill bits', 'Garage', 'Shelf']);
    const tags = (await get('/api/v1/tags')).body as { id: string; name: string }[];
    expect(tags.map((tag) => tag.name).sort()).toEqual(['Cables', 'Electronics']);
    const types = (await get('/api/v1/entity-types')).body as {
      name: string;
      isLocation: boolean;
      icon: string;
      defaultTemplate: { name: string } | null;
    }[];
    expect(
      types.map(({ name, isLocation, icon, defaultTemplate }) => ({
        name,
        isLocation,
        icon,
        defaultTemplate: defaultTemplate?.name ?? null,
      })),
    ).toEqual(
      expect.arrayContaining([
        { name: 'Item', isLocation: false, icon: 'mdi-package', defaultTemplate: 'Power tool' },
        { name: 'Location', isLocation: true, icon: '', defaultTemplate: null },
      ]),
    );
    expect(types).toHaveLength(2);
  });

  it('restores every column of an entity, its parent, tags and custom fields', async () => {
    const drill = await getEntity(app.trove, owner, ids['Cordless drill']);
    expect(drill).toMatchObject({
      name: 'Cordless drill',
      description: 'Blue one',
      quantity: 2,
      insured: true,
      archived: false,
      assetId: '000-042',
      serialNumber: 'SN-1',
      modelNumber: 'DHP482',
      manufacturer: 'Makita',
      lifetimeWarranty: false,
      warrantyExpires: '2027-03-04',
      warrantyDetails: 'Three years',
      purchaseDate: '2024-05-06',
      purchaseFrom: 'Hardware store',
      purchasePrice: 129.99,
      soldDate: '',
      soldTo: '',
      soldPrice: 0,
      soldNotes: '',
      notes: 'Keep charged',
      syncChildEntityLocations: true,
      parent: expect.objectContaining({ id: ids.Shelf, name: 'Shelf' }),
      tags: [expect.objectContaining({ name: 'Electronics' })],
      fields: [
        expect.objectContaining({ type: 'text', name: 'Voltage', textValue: '18V' }),
        expect.objectContaining({ type: 'number', name: 'Speeds', numberValue: 2 }),
        expect.objectContaining({ type: 'boolean', name: 'Brushless', booleanValue: true }),
      ],
    });
    const bits = await getEntity(app.trove, owner, ids['Drill bits']);
    expect(bits).toMatchObject({
      name: 'Drill bits',
      quantity: 12,
      archived: true,
      purchaseDate: '',
      parent: expect.objectContaining({ id: ids['Cordless drill'] }),
      tags: [expect.objectContaining({ name: 'Cables' })],
    });
  });

  it('keeps the nesting: locations inside locations, items inside items', async () => {
    const pathOf = async (name: string) =>
      (
        (await get(`/api/v1/entities/${ids[name]}/path`)).body as { type: string; name: string }[]
      ).map(({ type, name: step }) => `${type}:${step}`);
    expect(await pathOf('Drill bits')).toEqual([
      'location:Garage',
      'location:Shelf',
      'item:Cordless drill',
      'item:Drill bits',
    ]);
    const tags = (await get('/api/v1/tags')).body as { id: string; name: string }[];
    const cables = tags.find((tag) => tag.name === 'Cables')!;
    const electronics = tags.find((tag) => tag.name === 'Electronics')!;
    const tag = (await get(`/api/v1/tags/${cables.id}`)).body as { parent: { id: string } | null };
    expect(tag.parent?.id).toBe(electronics.id);
  });

  it('restores the maintenance entries, zero times as no date', async () => {
    const entries = (await get(`/api/v1/entities/${ids['Cordless drill']}/maintenance`)).body as {
      name: string;
      completedDate: string;
      scheduledDate: string;
      cost: string;
    }[];
    expect(
      entries
        .map(({ name, completedDate, scheduledDate, cost }) => ({
          name,
          completedDate,
          scheduledDate,
          cost,
        }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    ).toEqual([
      { name: 'Inspect brushes', completedDate: '', scheduledDate: '2026-12-01', cost: '0' },
      { name: 'Oil the chuck', completedDate: '2025-01-02', scheduledDate: '', cost: '4.5' },
    ]);
  });

  it('restores the photo with its bytes and the link, not Homebox’s thumbnail', async () => {
    const drill = await getEntity(app.trove, owner, ids['Cordless drill']);
    expect(
      drill.attachments.map(({ type, title, primary, mimeType }) => ({
        type,
        title,
        primary,
        mimeType,
      })),
    ).toEqual(
      expect.arrayContaining([
        { type: 'photo', title: 'drill.png', primary: true, mimeType: 'image/png' },
        { type: 'manual', title: 'Manual online', primary: false, mimeType: 'link/url' },
      ]),
    );
    expect(drill.attachments).toHaveLength(2);
    const photo = drill.attachments.find((attachment) => attachment.type === 'photo')!;
    expect(drill.imageId).toBe(photo.id);
    const download = await as(
      app.trove,
      owner,
      'get',
      `/api/v1/entities/${drill.id}/attachments/${photo.id}`,
    )
      .buffer(true)
      .parse(binary);
    expect(download.status).toBe(200);
    expect((download.body as Buffer).equals(collection.photoBytes)).toBe(true);
  });

  it('restores the template with its field, location and the zip’s tags', async () => {
    const list = (await get('/api/v1/templates')).body as { id: string; name: string }[];
    expect(list.map((template) => template.name)).toEqual(['Power tool']);
    const template = (await get(`/api/v1/templates/${list[0].id}`)).body as Record<string, unknown>;
    expect(template).toMatchObject({
      name: 'Power tool',
      defaultManufacturer: 'Makita',
      defaultInsured: true,
      fields: [expect.objectContaining({ name: 'Voltage', textValue: '18V' })],
      defaultLocation: expect.objectContaining({ id: ids.Garage, name: 'Garage' }),
      // The zip's template names a tag the zip does not have: only Electronics remains.
      defaultTags: [expect.objectContaining({ name: 'Electronics' })],
    });
  });

  it('refuses a zip of another Homebox schema version, restoring nothing', async () => {
    const other = await signUp(app.trove);
    const changed = homeboxCollection();
    changed.manifest.schemaVersion = 2;
    const response = await importZip(app.trove, other, await zipOf(changed));
    expect([response.status, response.body]).toEqual([
      400,
      { error: 'unknown backup schema version 2' },
    ]);
    const [row] = await app.trove.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM entities WHERE group_id = $1 AND name = 'Cordless drill'`,
      [other.groupId],
    );
    expect(row.count).toBe(0);
  });
});
