import type { Readable } from 'node:stream';
import {
  attachmentEntryName,
  BACKUP_FILE_NAME,
  BACKUP_TABLES,
  BackupFormatError,
  type BackupAttachmentType,
  type BackupFieldType,
  type BackupManifest,
  type BackupRows,
  type BackupSource,
  type BackupTable,
  TROVE_BACKUP_SCHEMA,
} from '../backup-format.js';
import type { BackupZip } from '../backup-zip.js';
import {
  type HomeboxRow,
  assetIdText,
  bool,
  calendarDate,
  clipped,
  decimal,
  idOf,
  integerText,
  list,
  number,
  refOf,
  text,
  timestamp,
} from './homebox-values.js';

/** Homebox's `schemaVersion` of the zips this reads. */
export const HOMEBOX_SCHEMA_VERSION = 1;

/** The MIME type Homebox (and Trove) give a link attachment, whose `path` is its URL. */
const LINK_MIME_TYPE = 'link/url';

const FIELD_TYPES: readonly BackupFieldType[] = ['text', 'number', 'boolean', 'time'];
const ATTACHMENT_TYPES: readonly BackupAttachmentType[] = [
  'attachment',
  'photo',
  'manual',
  'warranty',
  'receipt',
];

/**
 * Reads Homebox's collection export zip (schema version 1) as a backup in Trove's shapes.
 *
 * Homebox writes one `<table>.json` per table, each an array of its database rows keyed by
 * Homebox's column names, and the file of each attachment as `attachments/<attachment id>`.
 * The columns read, by Trove table (the first name found is used; later names are those of
 * older Homebox versions):
 *
 * - `entity_types`: `name`, `description`, `icon`, `is_location`|`location_type`, and
 *   `entity_type_default_template` → `default_template_id`.
 * - `entity_templates`: its `default_*`, `include_*`, `notes`; `entity_template_location` →
 *   `default_location_id`; `default_tag_ids` (a JSON array, or its text) kept for the tags the
 *   zip has.
 * - `template_fields`: `entity_template_fields` → `template_id`, positions in file order.
 * - `tags`: `tag_children` (the parent's id, held by the child) → `parent_id`, `color`, `icon`.
 * - `entities`: every item column; `entity_type_entities` → `entity_type_id` (an entity without
 *   one gets the zip's first item type), `entity_children`|`entity_parent` → `parent_id`,
 *   `purchase_date`|`purchase_time`, `sold_date`|`sold_time` and `warranty_expires` as calendar
 *   dates (the date written; Homebox's zero time and any date before year 100 mean none),
 *   `sync_child_entity_locations`|`sync_child_entities_locations`; `purchase_from` and `sold_to`
 *   (unbounded in Homebox) cut to Trove's 255 characters.
 * - `entity_fields`: `entity_fields` (the entity's id) → `entity_id`, positions in file order.
 * - `tag_entities` (`tag_id`, `entity_id`) → `entity_tags`.
 * - `maintenance_entries`: `entity_id`|`item_id`, `date`, `scheduled_date`, `cost`.
 * - `attachments`: `entity_attachments` → `entity_id`; a `link/url` row keeps its `path` as the
 *   link, any other row its file `attachments/<id>`. Thumbnails (rows of no entity, or of type
 *   `thumbnail`) are left out: Trove makes its own. So is a row whose file the zip lacks.
 *
 * Not read: `notifiers` (Trove keeps notifiers out of backups), and template photos. Homebox has
 * no `entity_stock` or `checkouts`: none are restored.
 */
export class HomeboxBackupSource implements BackupSource {
  readonly manifest: BackupManifest;

  /** Filled on first use: facts about other tables that some rows need. */
  private lookups?: Promise<Lookups>;

  constructor(
    private readonly zip: BackupZip,
    manifest: Record<string, unknown>,
  ) {
    this.manifest = readHomeboxManifest(manifest, this.countFiles());
  }

  async *rows<T extends BackupTable>(table: T): AsyncIterable<BackupRows[T]> {
    const read = READERS[table] as Reader<T>;
    yield* read(this);
  }

  openFile(file: string): Promise<Readable> {
    if (!BACKUP_FILE_NAME.test(file)) {
      return Promise.reject(new BackupFormatError(`invalid attachment file name ${file}`));
    }
    return this.zip.open(attachmentEntryName(file));
  }

  close(): Promise<void> {
    return this.zip.close();
  }

  /** The rows of one of Homebox's tables, each checked to be an object. */
  async *homeboxRows(table: string): AsyncGenerator<HomeboxRow> {
    const name = `${table}.json`;
    for await (const row of this.zip.readJsonArray(name)) {
      if (typeof row !== 'object' || row === null || Array.isArray(row)) {
        throw new BackupFormatError(`${name} holds an element that is not an object`);
      }
      yield row as HomeboxRow;
    }
  }

  hasFile(file: string): boolean {
    return BACKUP_FILE_NAME.test(file) && this.zip.has(attachmentEntryName(file));
  }

  lookup(): Promise<Lookups> {
    this.lookups ??= this.readLookups();
    return this.lookups;
  }

  private countFiles(): number {
    let files = 0;
    for (const name of this.zip.names()) if (name.startsWith('attachments/')) files += 1;
    return files;
  }

  private async readLookups(): Promise<Lookups> {
    let defaultItemTypeId: string | null = null;
    for await (const row of this.homeboxRows('entity_types')) {
      if (!isLocationType(row)) {
        defaultItemTypeId = idOf(row, 'entity_types');
        break;
      }
    }
    const tagIds = new Set<string>();
    for await (const row of this.homeboxRows('tags')) tagIds.add(idOf(row, 'tags'));
    return { defaultItemTypeId, tagIds };
  }
}

interface Lookups {
  /** The first type of the zip that is not a location's: for entities that have none. */
  defaultItemTypeId: string | null;
  /** The ids of the zip's tags. */
  tagIds: Set<string>;
}

type Reader<T extends BackupTable> = (source: HomeboxBackupSource) => AsyncIterable<BackupRows[T]>;

const isLocationType = (row: HomeboxRow): boolean =>
  bool(row.is_location ?? row.location_type ?? false);

/** `id`, `created_at` and `updated_at` of a row. */
const base = (row: HomeboxRow, table: string) => {
  const createdAt = timestamp(row.created_at);
  return {
    id: idOf(row, table),
    created_at: createdAt,
    updated_at: row.updated_at === undefined ? createdAt : timestamp(row.updated_at),
  };
};

/** A running position per parent row, in the order rows come. */
function positions(): (parentId: string) => number {
  const next = new Map<string, number>();
  return (parentId) => {
    const position = next.get(parentId) ?? 0;
    next.set(parentId, position + 1);
    return position;
  };
}

const fieldType = (value: unknown, table: string): BackupFieldType => {
  const type = text(value) as BackupFieldType;
  if (!FIELD_TYPES.includes(type)) {
    throw new BackupFormatError(
      `${table}.json has a field of unknown type ${JSON.stringify(value)}`,
    );
  }
  return type;
};

/** The rows of a table Homebox does not have: none. */
const noRows = <T>(): AsyncIterable<T> => ({
  [Symbol.asyncIterator]: () => ({
    next: () => Promise.resolve({ done: true, value: undefined }),
  }),
});

const READERS: { [T in BackupTable]: Reader<T> } = {
  async *entity_types(source) {
    for await (const row of source.homeboxRows('entity_types')) {
      yield {
        ...base(row, 'entity_types'),
        name: text(row.name),
        description: text(row.description),
        icon: text(row.icon),
        is_location: isLocationType(row),
        default_template_id: refOf(row.entity_type_default_template),
      };
    }
  },

  async *entity_templates(source) {
    const { tagIds } = await source.lookup();
    for await (const row of source.homeboxRows('entity_templates')) {
      yield {
        ...base(row, 'entity_templates'),
        name: text(row.name),
        description: text(row.description),
        notes: text(row.notes),
        default_name: text(row.default_name),
        default_description: text(row.default_description),
        default_manufacturer: text(row.default_manufacturer),
        default_model_number: text(row.default_model_number),
        default_quantity: number(row.default_quantity, 1),
        default_insured: bool(row.default_insured),
        default_lifetime_warranty: bool(row.default_lifetime_warranty),
        default_warranty_details: text(row.default_warranty_details),
        default_location_id: refOf(row.entity_template_location),
        default_tag_ids: list(row.default_tag_ids).filter((id) => tagIds.has(id)),
        include_purchase_fields: bool(row.include_purchase_fields),
        include_sold_fields: bool(row.include_sold_fields),
        include_warranty_fields: bool(row.include_warranty_fields),
      };
    }
  },

  async *template_fields(source) {
    const position = positions();
    for await (const row of source.homeboxRows('template_fields')) {
      const templateId = refOf(row.entity_template_fields ?? row.item_template_fields);
      if (templateId === null) continue;
      yield {
        ...base(row, 'template_fields'),
        template_id: templateId,
        name: text(row.name),
        description: text(row.description),
        type: fieldType(row.type ?? 'text', 'template_fields'),
        text_value: text(row.text_value),
        number_value: '0',
        boolean_value: false,
        time_value: null,
        position: position(templateId),
      };
    }
  },

  async *tags(source) {
    for await (const row of source.homeboxRows('tags')) {
      yield {
        ...base(row, 'tags'),
        parent_id: refOf(row.tag_children ?? row.tag_parent ?? row.parent_id),
        name: text(row.name),
        description: text(row.description),
        color: text(row.color),
        icon: text(row.icon),
      };
    }
  },

  async *entities(source) {
    const { defaultItemTypeId } = await source.lookup();
    for await (const row of source.homeboxRows('entities')) {
      const values = base(row, 'entities');
      const typeId = refOf(row.entity_type_entities ?? row.entity_type_id) ?? defaultItemTypeId;
      if (typeId === null) {
        throw new BackupFormatError(
          `entity ${values.id} has no entity type, and the zip has no item type to give it`,
        );
      }
      yield {
        ...values,
        entity_type_id: typeId,
        parent_id: refOf(row.entity_children ?? row.entity_parent ?? row.parent_id),
        name: text(row.name),
        description: text(row.description),
        import_ref: text(row.import_ref) || null,
        notes: text(row.notes),
        quantity: number(row.quantity, 1),
        insured: bool(row.insured),
        archived: bool(row.archived),
        asset_id: assetIdText(row.asset_id),
        serial_number: text(row.serial_number),
        model_number: text(row.model_number),
        manufacturer: text(row.manufacturer),
        lifetime_warranty: bool(row.lifetime_warranty),
        warranty_expires: calendarDate(row.warranty_expires),
        warranty_details: text(row.warranty_details),
        purchase_date: calendarDate(row.purchase_date ?? row.purchase_time),
        purchase_from: clipped(row.purchase_from, 255),
        purchase_price: decimal(row.purchase_price),
        sold_date: calendarDate(row.sold_date ?? row.sold_time),
        sold_to: clipped(row.sold_to, 255),
        sold_price: decimal(row.sold_price),
        sold_notes: text(row.sold_notes),
        sync_child_entity_locations: bool(
          row.sync_child_entity_locations ??
            row.sync_child_entities_locations ??
            row.sync_child_items_locations,
        ),
      };
    }
  },

  async *entity_fields(source) {
    const position = positions();
    for await (const row of source.homeboxRows('entity_fields')) {
      const entityId = refOf(row.entity_fields ?? row.entity_id);
      if (entityId === null) continue;
      const type = fieldType(row.type, 'entity_fields');
      yield {
        ...base(row, 'entity_fields'),
        entity_id: entityId,
        name: text(row.name),
        description: text(row.description),
        type,
        text_value: text(row.text_value),
        number_value: integerText(row.number_value),
        boolean_value: bool(row.boolean_value),
        time_value: type === 'time' ? optionalTimestamp(row.time_value) : null,
        position: position(entityId),
      };
    }
  },

  async *entity_tags(source) {
    for await (const row of source.homeboxRows('tag_entities')) {
      const entityId = refOf(row.entity_id);
      const tagId = refOf(row.tag_id);
      if (entityId !== null && tagId !== null) yield { entity_id: entityId, tag_id: tagId };
    }
  },

  async *maintenance_entries(source) {
    for await (const row of source.homeboxRows('maintenance_entries')) {
      const entityId = refOf(row.entity_id ?? row.item_id);
      if (entityId === null) continue;
      yield {
        ...base(row, 'maintenance_entries'),
        entity_id: entityId,
        name: text(row.name),
        description: text(row.description),
        date: calendarDate(row.date),
        scheduled_date: calendarDate(row.scheduled_date),
        cost: decimal(row.cost),
      };
    }
  },

  // Homebox has no stock settings and no check-outs.
  entity_stock: () => noRows(),
  checkouts: () => noRows(),

  async *attachments(source) {
    for await (const row of source.homeboxRows('attachments')) {
      const entityId = refOf(row.entity_attachments ?? row.item_attachments);
      const type = text(row.type) as BackupAttachmentType;
      if (entityId === null || !ATTACHMENT_TYPES.includes(type)) continue;
      const values = base(row, 'attachments');
      const mimeType = clipped(row.mime_type, 255) || 'application/octet-stream';
      const path = text(row.path);
      const link = mimeType === LINK_MIME_TYPE ? path : null;
      if (link === null && !source.hasFile(values.id)) continue;
      if (link === '') continue;
      yield {
        ...values,
        entity_id: entityId,
        type,
        primary: type === 'photo' && bool(row.primary),
        title: clipped(text(row.title) || path.split('/').at(-1), 255),
        mime_type: mimeType,
        thumbnail_id: null,
        file: link === null ? values.id : null,
        link,
      };
    }
  },
};

/** A timestamp, or null for none (absent, or Homebox's zero time). */
function optionalTimestamp(value: unknown): string | null {
  return calendarDate(value) === null ? null : timestamp(value);
}

/** Homebox's name of each table, for the manifest's counts. */
const homeboxTable = (table: BackupTable): string =>
  table === 'entity_tags' ? 'tag_entities' : table;

/**
 * Homebox's manifest (`{schemaVersion: 1, exportedAt, groupId, homeboxVersion?, counts}`) in
 * Trove's shape; its counts serve progress only, so a missing or odd one counts 0.
 */
export function readHomeboxManifest(raw: Record<string, unknown>, files: number): BackupManifest {
  if (raw.schemaVersion !== HOMEBOX_SCHEMA_VERSION) {
    throw new BackupFormatError(
      `unknown Homebox schema version ${JSON.stringify(raw.schemaVersion ?? null)}`,
    );
  }
  const counts = (
    typeof raw.counts === 'object' && raw.counts !== null ? raw.counts : {}
  ) as Record<string, unknown>;
  const count = (value: unknown): number =>
    typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
  return {
    schemaVersion: TROVE_BACKUP_SCHEMA,
    exportedAt: typeof raw.exportedAt === 'string' ? raw.exportedAt : '',
    groupId: typeof raw.groupId === 'string' ? raw.groupId : '',
    troveVersion:
      typeof raw.homeboxVersion === 'string' && raw.homeboxVersion !== ''
        ? `homebox ${raw.homeboxVersion}`
        : 'homebox',
    counts: {
      ...(Object.fromEntries(
        BACKUP_TABLES.map((table) => [table, count(counts[homeboxTable(table)])]),
      ) as Record<BackupTable, number>),
      files,
    },
  };
}
