import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BACKUP_TABLES,
  BackupFormatError,
  type BackupRows,
  type BackupSource,
  type BackupTable,
} from '../../src/operations/collection-backups/backup-format.js';
import { openBackup } from '../../src/operations/collection-backups/formats/backup-formats.js';
import {
  homeboxCollection,
  writeHomeboxZip,
  type HomeboxCollection,
} from '../support/homebox-zip.js';

const all = async <T extends BackupTable>(
  source: BackupSource,
  table: T,
): Promise<BackupRows[T][]> => {
  const rows: BackupRows[T][] = [];
  for await (const row of source.rows(table)) rows.push(row);
  return rows;
};

const read = async (source: BackupSource, file: string): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of await source.openFile(file)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

const stamp = (day: string): string => `${day}T10:20:30.123Z`;

describe('reading a Homebox export zip (schema version 1) as a backup', () => {
  let collection: HomeboxCollection;
  let zipPath: string;
  let source: BackupSource;
  let id: HomeboxCollection['id'];

  beforeAll(async () => {
    collection = homeboxCollection();
    id = collection.id;
    zipPath = await writeHomeboxZip(collection);
    source = await openBackup(zipPath);
  });
  afterAll(async () => {
    await source.close();
    await rm(path.dirname(zipPath), { recursive: true, force: true });
  });

  it('translates the manifest, counting the attachment files', () => {
    expect(source.manifest).toEqual({
      schemaVersion: 'trove-1',
      exportedAt: '2024-06-01T12:00:00.5Z',
      groupId: collection.groupId,
      troveVersion: 'homebox 0.21.0',
      counts: {
        entity_types: 2,
        entity_templates: 1,
        template_fields: 1,
        tags: 2,
        entities: 4,
        entity_fields: 3,
        entity_tags: 2,
        maintenance_entries: 2,
        entity_stock: 0,
        checkouts: 0,
        attachments: 4,
        files: 2,
      },
    });
  });

  it('entity types: is_location, icon, the default template', async () => {
    expect(await all(source, 'entity_types')).toEqual([
      {
        id: id.itemType,
        created_at: stamp('2024-01-01'),
        updated_at: stamp('2024-01-01'),
        name: 'Item',
        description: '',
        icon: 'mdi-package',
        is_location: false,
        default_template_id: id.template,
      },
      {
        id: id.locationType,
        created_at: stamp('2024-01-01'),
        updated_at: stamp('2024-01-01'),
        name: 'Location',
        description: 'Rooms and shelves',
        icon: '',
        is_location: true,
        default_template_id: null,
      },
    ]);
  });

  it('templates keep their defaults, location and the tags the zip has; fields get positions', async () => {
    expect(await all(source, 'entity_templates')).toEqual([
      {
        id: id.template,
        created_at: stamp('2024-01-02'),
        updated_at: stamp('2024-01-03'),
        name: 'Power tool',
        description: 'Cordless tools',
        notes: 'Check the battery',
        default_name: 'Tool',
        default_description: 'A tool',
        default_manufacturer: 'Makita',
        default_model_number: 'X-1',
        default_quantity: 1,
        default_insured: true,
        default_lifetime_warranty: false,
        default_warranty_details: 'Two years',
        default_location_id: id.garage,
        default_tag_ids: [id.electronics],
        include_purchase_fields: true,
        include_sold_fields: false,
        include_warranty_fields: true,
      },
    ]);
    expect(await all(source, 'template_fields')).toEqual([
      {
        id: id.templateField,
        created_at: stamp('2024-01-02'),
        updated_at: stamp('2024-01-02'),
        template_id: id.template,
        name: 'Voltage',
        description: '',
        type: 'text',
        text_value: '18V',
        number_value: '0',
        boolean_value: false,
        time_value: null,
        position: 0,
      },
    ]);
  });

  it('tags: tag_children is the parent', async () => {
    expect(await all(source, 'tags')).toEqual([
      {
        id: id.cables,
        created_at: stamp('2024-02-02'),
        updated_at: stamp('2024-02-02'),
        parent_id: id.electronics,
        name: 'Cables',
        description: 'Leads and chargers',
        color: '#00ff00',
        icon: '',
      },
      {
        id: id.electronics,
        created_at: stamp('2024-02-01'),
        updated_at: stamp('2024-02-01'),
        parent_id: null,
        name: 'Electronics',
        description: '',
        color: '#ff0000',
        icon: 'mdi-chip',
      },
    ]);
  });

  it('entities: every column, entity_children as the parent, dates as written, zero times none', async () => {
    const entities = await all(source, 'entities');
    const blank = {
      description: '',
      import_ref: null,
      notes: '',
      quantity: 1,
      insured: false,
      archived: false,
      asset_id: '0',
      serial_number: '',
      model_number: '',
      manufacturer: '',
      lifetime_warranty: false,
      warranty_expires: null,
      warranty_details: '',
      purchase_date: null,
      purchase_from: '',
      purchase_price: '0',
      sold_date: null,
      sold_to: '',
      sold_price: '0',
      sold_notes: '',
      sync_child_entity_locations: false,
    };
    expect(entities).toEqual([
      {
        ...blank,
        id: id.bits,
        created_at: stamp('2024-03-04'),
        updated_at: stamp('2024-03-05'),
        // No type in the zip: the first item type.
        entity_type_id: id.itemType,
        parent_id: id.drill,
        name: 'Drill bits',
        quantity: 12,
        archived: true,
      },
      {
        ...blank,
        id: id.garage,
        created_at: stamp('2024-03-01'),
        updated_at: stamp('2024-03-01'),
        entity_type_id: id.locationType,
        parent_id: null,
        name: 'Garage',
        description: 'Detached',
      },
      {
        ...blank,
        id: id.shelf,
        created_at: stamp('2024-03-02'),
        updated_at: stamp('2024-03-02'),
        entity_type_id: id.locationType,
        parent_id: id.garage,
        name: 'Shelf',
      },
      {
        id: id.drill,
        created_at: stamp('2024-03-03'),
        updated_at: '2024-03-06T08:09:10.500Z',
        entity_type_id: id.itemType,
        parent_id: id.shelf,
        name: 'Cordless drill',
        description: 'Blue one',
        import_ref: 'hb-00042',
        notes: 'Keep charged',
        quantity: 2,
        insured: true,
        archived: false,
        asset_id: '42',
        serial_number: 'SN-1',
        model_number: 'DHP482',
        manufacturer: 'Makita',
        lifetime_warranty: false,
        warranty_expires: '2027-03-04',
        warranty_details: 'Three years',
        purchase_date: '2024-05-06',
        purchase_from: 'Hardware store',
        purchase_price: '129.99',
        sold_date: null,
        sold_to: '',
        sold_price: '0',
        sold_notes: '',
        sync_child_entity_locations: true,
      },
    ]);
  });

  it('custom fields, tag links and maintenance entries', async () => {
    const field = {
      created_at: stamp('2024-03-03'),
      updated_at: stamp('2024-03-03'),
      entity_id: id.drill,
      description: '',
      time_value: null,
    };
    expect(await all(source, 'entity_fields')).toEqual([
      {
        ...field,
        id: id.voltage,
        name: 'Voltage',
        type: 'text',
        text_value: '18V',
        number_value: '0',
        boolean_value: false,
        position: 0,
      },
      {
        ...field,
        id: id.speeds,
        name: 'Speeds',
        type: 'number',
        text_value: '',
        number_value: '2',
        boolean_value: false,
        position: 1,
      },
      {
        ...field,
        id: id.brushless,
        name: 'Brushless',
        type: 'boolean',
        text_value: '',
        number_value: '0',
        boolean_value: true,
        position: 2,
      },
    ]);
    expect(await all(source, 'entity_tags')).toEqual([
      { entity_id: id.drill, tag_id: id.electronics },
      { entity_id: id.bits, tag_id: id.cables },
    ]);
    expect(await all(source, 'maintenance_entries')).toEqual([
      {
        id: id.oil,
        created_at: stamp('2024-04-01'),
        updated_at: stamp('2024-04-01'),
        entity_id: id.drill,
        name: 'Oil the chuck',
        description: 'Light oil',
        date: '2025-01-02',
        scheduled_date: null,
        cost: '4.5',
      },
      {
        id: id.inspect,
        created_at: stamp('2024-04-02'),
        updated_at: stamp('2024-04-02'),
        entity_id: id.drill,
        name: 'Inspect brushes',
        description: '',
        date: null,
        scheduled_date: '2026-12-01',
        cost: '0',
      },
    ]);
    // Homebox has no stock settings and no check-outs.
    expect(await all(source, 'entity_stock')).toEqual([]);
    expect(await all(source, 'checkouts')).toEqual([]);
  });

  it('attachments: files by attachment id, links kept, thumbnails and rows without a file left out', async () => {
    expect(await all(source, 'attachments')).toEqual([
      {
        id: id.photo,
        created_at: stamp('2024-03-03'),
        updated_at: stamp('2024-03-03'),
        entity_id: id.drill,
        type: 'photo',
        primary: true,
        title: 'drill.png',
        mime_type: 'image/png',
        thumbnail_id: null,
        file: id.photo,
        link: null,
      },
      {
        id: id.link,
        created_at: stamp('2024-03-04'),
        updated_at: stamp('2024-03-04'),
        entity_id: id.drill,
        type: 'manual',
        primary: false,
        title: 'Manual online',
        mime_type: 'link/url',
        thumbnail_id: null,
        file: null,
        link: 'https://example.com/drill-manual.pdf',
      },
    ]);
    expect(await read(source, id.photo)).toEqual(collection.photoBytes);
    await expect(source.openFile('../manifest.json')).rejects.toBeInstanceOf(BackupFormatError);
  });

  it('reads a table again from its start when asked twice', async () => {
    for (const table of BACKUP_TABLES) {
      expect(await all(source, table)).toEqual(await all(source, table));
    }
    expect(await all(source, 'entities')).toHaveLength(4);
  });
});

describe('Homebox values Trove keeps shorter', () => {
  it('cuts where the entity was bought from and sold to, and attachment titles, to 255 characters', async () => {
    const collection = homeboxCollection();
    const drill = collection.tables.entities.find((row) => row.id === collection.id.drill)!;
    drill.purchase_from = 'é'.repeat(300);
    drill.sold_to = 'x'.repeat(256);
    collection.tables.attachments[0].title = 't'.repeat(400);
    const zipPath = await writeHomeboxZip(collection);
    const source = await openBackup(zipPath);
    try {
      const entity = (await all(source, 'entities')).find((row) => row.id === collection.id.drill)!;
      expect([entity.purchase_from, entity.sold_to]).toEqual(['é'.repeat(255), 'x'.repeat(255)]);
      expect((await all(source, 'attachments'))[0].title).toBe('t'.repeat(255));
    } finally {
      await source.close();
      await rm(path.dirname(zipPath), { recursive: true, force: true });
    }
  });
});

describe('Homebox zips that cannot be read', () => {
  const open = async (change: (collection: HomeboxCollection) => void): Promise<unknown> => {
    const collection = homeboxCollection();
    change(collection);
    const zipPath = await writeHomeboxZip(collection);
    try {
      const source = await openBackup(zipPath);
      try {
        for (const table of BACKUP_TABLES) await all(source, table);
        return undefined;
      } finally {
        await source.close();
      }
    } catch (error) {
      return error;
    } finally {
      await rm(path.dirname(zipPath), { recursive: true, force: true });
    }
  };

  it.each([
    [
      'another schema version',
      (c: HomeboxCollection) => {
        c.manifest.schemaVersion = 2;
      },
      'unknown backup schema version 2',
    ],
    [
      'a table that is not an array',
      (c: HomeboxCollection) => {
        (c.tables as Record<string, unknown>).entities = { id: 'x' };
      },
      'entities.json is not a JSON array: it does not start with "["',
    ],
    [
      'a row that is not an object',
      (c: HomeboxCollection) => {
        c.tables.tags = [1 as never];
      },
      'tags.json holds an element that is not an object',
    ],
    [
      'a row without an id',
      (c: HomeboxCollection) => {
        delete c.tables.entities[0].id;
      },
      'entities.json has a row without an id',
    ],
    [
      'an entity with no type and no item type to give it',
      (c: HomeboxCollection) => {
        c.tables.entity_types = c.tables.entity_types.filter((row) => row.is_location);
        c.tables.entities[0].entity_type_entities = null;
      },
      `has no entity type, and the zip has no item type to give it`,
    ],
    [
      'a custom field of an unknown type',
      (c: HomeboxCollection) => {
        c.tables.entity_fields[0].type = 'colour';
      },
      'entity_fields.json has a field of unknown type "colour"',
    ],
  ])('%s is a BackupFormatError', async (_what, change, message) => {
    const error = await open(change);
    expect(error).toBeInstanceOf(BackupFormatError);
    expect((error as Error).message).toContain(message);
  });
});
