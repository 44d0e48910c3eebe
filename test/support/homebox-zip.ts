import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import yazl from 'yazl';

/**
 * A small collection as Homebox's export (schema version 1) writes it: `manifest.json`, one
 * `<table>.json` per table holding raw rows keyed by Homebox's column names (FK columns such as
 * `group_entities`, `entity_children`, `entity_type_entities`), and `attachments/<id>` blobs.
 * Booleans are written both as JSON booleans and as SQLite's 0/1, times as Go writes them.
 */
export function homeboxCollection() {
  const groupId = randomUUID();
  const id = {
    itemType: randomUUID(),
    locationType: randomUUID(),
    template: randomUUID(),
    templateField: randomUUID(),
    electronics: randomUUID(),
    cables: randomUUID(),
    garage: randomUUID(),
    shelf: randomUUID(),
    drill: randomUUID(),
    bits: randomUUID(),
    voltage: randomUUID(),
    speeds: randomUUID(),
    brushless: randomUUID(),
    oil: randomUUID(),
    inspect: randomUUID(),
    photo: randomUUID(),
    thumbnail: randomUUID(),
    link: randomUUID(),
    lostReceipt: randomUUID(),
    notifier: randomUUID(),
  };
  const at = (day: string): string => `${day}T10:20:30.123456789Z`;
  const photoBytes = Buffer.from('\x89PNG\r\n\x1a\n drill photo bytes', 'latin1');
  const thumbnailBytes = Buffer.from('thumbnail bytes');

  const tables: Record<string, Record<string, unknown>[]> = {
    entity_types: [
      {
        id: id.itemType,
        created_at: at('2024-01-01'),
        updated_at: at('2024-01-01'),
        name: 'Item',
        description: '',
        icon: 'mdi-package',
        color: '',
        is_location: false,
        is_container: false,
        group_entity_types: groupId,
        entity_type_default_template: id.template,
      },
      {
        id: id.locationType,
        created_at: at('2024-01-01'),
        updated_at: at('2024-01-01'),
        name: 'Location',
        description: 'Rooms and shelves',
        icon: '',
        color: '',
        is_location: 1,
        is_container: 0,
        group_entity_types: groupId,
        entity_type_default_template: null,
      },
    ],
    entity_templates: [
      {
        id: id.template,
        created_at: at('2024-01-02'),
        updated_at: at('2024-01-03'),
        name: 'Power tool',
        description: 'Cordless tools',
        notes: 'Check the battery',
        default_quantity: 1,
        default_low_stock_threshold: null,
        default_insured: true,
        default_name: 'Tool',
        default_description: 'A tool',
        default_manufacturer: 'Makita',
        default_model_number: 'X-1',
        default_lifetime_warranty: false,
        default_warranty_details: 'Two years',
        include_warranty_fields: true,
        include_purchase_fields: 1,
        include_sold_fields: 0,
        default_tag_ids: JSON.stringify([id.electronics, randomUUID()]),
        group_entity_templates: groupId,
        entity_template_location: id.garage,
      },
    ],
    template_fields: [
      {
        id: id.templateField,
        created_at: at('2024-01-02'),
        updated_at: at('2024-01-02'),
        name: 'Voltage',
        description: '',
        type: 'text',
        text_value: '18V',
        entity_template_fields: id.template,
      },
    ],
    tags: [
      {
        id: id.cables,
        created_at: at('2024-02-02'),
        updated_at: at('2024-02-02'),
        name: 'Cables',
        description: 'Leads and chargers',
        color: '#00ff00',
        icon: '',
        group_tags: groupId,
        tag_children: id.electronics,
      },
      {
        id: id.electronics,
        created_at: at('2024-02-01'),
        updated_at: at('2024-02-01'),
        name: 'Electronics',
        description: '',
        color: '#ff0000',
        icon: 'mdi-chip',
        group_tags: groupId,
        tag_children: null,
      },
    ],
    entities: [
      {
        id: id.bits,
        created_at: at('2024-03-04'),
        updated_at: at('2024-03-05'),
        name: 'Drill bits',
        description: '',
        import_ref: null,
        notes: null,
        quantity: 12,
        insured: 0,
        archived: 1,
        asset_id: 0,
        sync_child_entities_locations: 0,
        serial_number: null,
        model_number: null,
        manufacturer: null,
        lifetime_warranty: 0,
        warranty_expires: null,
        warranty_details: null,
        purchase_time: '0001-01-01T00:00:00Z',
        purchase_from: null,
        purchase_price: 0,
        sold_time: null,
        sold_to: null,
        sold_price: 0,
        sold_notes: null,
        group_entities: groupId,
        entity_children: id.drill,
        entity_type_entities: null,
      },
      {
        id: id.garage,
        created_at: at('2024-03-01'),
        updated_at: at('2024-03-01'),
        name: 'Garage',
        description: 'Detached',
        quantity: 1,
        insured: false,
        archived: false,
        asset_id: 0,
        purchase_price: 0,
        sold_price: 0,
        group_entities: groupId,
        entity_children: null,
        entity_type_entities: id.locationType,
      },
      {
        id: id.shelf,
        created_at: at('2024-03-02'),
        updated_at: at('2024-03-02'),
        name: 'Shelf',
        description: '',
        quantity: 1,
        insured: false,
        archived: false,
        asset_id: 0,
        purchase_price: 0,
        sold_price: 0,
        group_entities: groupId,
        entity_children: id.garage,
        entity_type_entities: id.locationType,
      },
      {
        id: id.drill,
        created_at: at('2024-03-03'),
        updated_at: '2024-03-06 08:09:10.5+00:00',
        name: 'Cordless drill',
        description: 'Blue one',
        import_ref: 'hb-00042',
        notes: 'Keep charged',
        quantity: 2,
        insured: true,
        archived: false,
        asset_id: 42,
        sync_child_entities_locations: true,
        serial_number: 'SN-1',
        model_number: 'DHP482',
        manufacturer: 'Makita',
        lifetime_warranty: false,
        warranty_expires: '2027-03-04T00:00:00Z',
        warranty_details: 'Three years',
        purchase_time: '2024-05-06T00:00:00-04:00',
        purchase_from: 'Hardware store',
        purchase_price: 129.99,
        sold_time: '0001-01-01T00:00:00Z',
        sold_to: '',
        sold_price: 0,
        sold_notes: '',
        group_entities: groupId,
        entity_children: id.shelf,
        entity_type_entities: id.itemType,
      },
    ],
    entity_fields: [
      {
        id: id.voltage,
        created_at: at('2024-03-03'),
        updated_at: at('2024-03-03'),
        name: 'Voltage',
        description: '',
        type: 'text',
        text_value: '18V',
        number_value: null,
        boolean_value: false,
        time_value: '0001-01-01T00:00:00Z',
        entity_fields: id.drill,
      },
      {
        id: id.speeds,
        created_at: at('2024-03-03'),
        updated_at: at('2024-03-03'),
        name: 'Speeds',
        description: '',
        type: 'number',
        text_value: '',
        number_value: 2,
        boolean_value: 0,
        time_value: '0001-01-01T00:00:00Z',
        entity_fields: id.drill,
      },
      {
        id: id.brushless,
        created_at: at('2024-03-03'),
        updated_at: at('2024-03-03'),
        name: 'Brushless',
        description: '',
        type: 'boolean',
        text_value: '',
        number_value: null,
        boolean_value: 1,
        time_value: '0001-01-01T00:00:00Z',
        entity_fields: id.drill,
      },
    ],
    maintenance_entries: [
      {
        id: id.oil,
        created_at: at('2024-04-01'),
        updated_at: at('2024-04-01'),
        entity_id: id.drill,
        date: '2025-01-02T00:00:00Z',
        scheduled_date: null,
        name: 'Oil the chuck',
        description: 'Light oil',
        cost: 4.5,
      },
      {
        id: id.inspect,
        created_at: at('2024-04-02'),
        updated_at: at('2024-04-02'),
        entity_id: id.drill,
        date: '0001-01-01T00:00:00Z',
        scheduled_date: '2026-12-01T00:00:00Z',
        name: 'Inspect brushes',
        description: '',
        cost: 0,
      },
    ],
    attachments: [
      {
        id: id.photo,
        created_at: at('2024-03-03'),
        updated_at: at('2024-03-03'),
        type: 'photo',
        primary: 1,
        title: 'drill.png',
        path: `${groupId}/documents/abc`,
        mime_type: 'image/png',
        entity_attachments: id.drill,
        attachment_thumbnail: id.thumbnail,
      },
      {
        id: id.thumbnail,
        created_at: at('2024-03-03'),
        updated_at: at('2024-03-03'),
        type: 'thumbnail',
        primary: 0,
        title: 'drill.png',
        path: `${groupId}/documents/abc-thumb`,
        mime_type: 'image/webp',
        entity_attachments: null,
        attachment_thumbnail: null,
      },
      {
        id: id.link,
        created_at: at('2024-03-04'),
        updated_at: at('2024-03-04'),
        type: 'manual',
        primary: false,
        title: 'Manual online',
        path: 'https://example.com/drill-manual.pdf',
        mime_type: 'link/url',
        entity_attachments: id.drill,
        attachment_thumbnail: null,
      },
      {
        id: id.lostReceipt,
        created_at: at('2024-03-04'),
        updated_at: at('2024-03-04'),
        type: 'receipt',
        primary: false,
        title: 'receipt.pdf',
        path: `${groupId}/documents/gone`,
        mime_type: 'application/pdf',
        entity_attachments: id.drill,
        attachment_thumbnail: null,
      },
    ],
    tag_entities: [
      { tag_id: id.electronics, entity_id: id.drill },
      { tag_id: id.cables, entity_id: id.bits },
    ],
    notifiers: [
      {
        id: id.notifier,
        created_at: at('2024-01-01'),
        updated_at: at('2024-01-01'),
        name: 'Phone',
        url: 'ntfy://secret',
        is_active: true,
        group_id: groupId,
        user_id: randomUUID(),
      },
    ],
  };
  const files: Record<string, Buffer> = {
    [`attachments/${id.photo}`]: photoBytes,
    [`attachments/${id.thumbnail}`]: thumbnailBytes,
  };
  const manifest = {
    schemaVersion: 1,
    exportedAt: '2024-06-01T12:00:00.5Z',
    groupId,
    homeboxVersion: '0.21.0',
    counts: Object.fromEntries(Object.entries(tables).map(([name, rows]) => [name, rows.length])),
  };
  return { groupId, id, tables, files, manifest, photoBytes };
}

export type HomeboxCollection = ReturnType<typeof homeboxCollection>;

/** Writes the collection as a zip (in a new temporary folder); its path. */
export async function writeHomeboxZip(
  collection: Pick<HomeboxCollection, 'tables' | 'files' | 'manifest'>,
): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'homebox-zip-'));
  const file = path.join(folder, 'homebox-export.zip');
  const zip = new yazl.ZipFile();
  for (const [name, rows] of Object.entries(collection.tables)) {
    zip.addBuffer(Buffer.from(`${JSON.stringify(rows)}\n`), `${name}.json`);
  }
  for (const [name, bytes] of Object.entries(collection.files)) zip.addBuffer(bytes, name);
  zip.addBuffer(Buffer.from(`${JSON.stringify(collection.manifest)}\n`), 'manifest.json');
  zip.end();
  const output = createWriteStream(file);
  zip.outputStream.pipe(output);
  await finished(output);
  return file;
}
