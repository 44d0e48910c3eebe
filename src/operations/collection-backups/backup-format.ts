import type { Readable } from 'node:stream';

/**
 * The collection backup zip ("group export"), version `trove-1`:
 *
 * ```
 * manifest.json              BackupManifest
 * entity_types.json          [BackupEntityTypeRow, ...]
 * entity_templates.json      [BackupTemplateRow, ...]
 * template_fields.json       [BackupTemplateFieldRow, ...]
 * tags.json                  [BackupTagRow, ...]
 * entities.json              [BackupEntityRow, ...]
 * entity_fields.json         [BackupEntityFieldRow, ...]
 * entity_tags.json           [BackupEntityTagRow, ...]
 * maintenance_entries.json   [BackupMaintenanceEntryRow, ...]
 * entity_stock.json          [BackupEntityStockRow, ...]
 * checkouts.json             [BackupCheckoutRow, ...]
 * attachments.json           [BackupAttachmentRow, ...]
 * attachments/<file>         the bytes of each stored file, once per distinct file
 * ```
 *
 * Each table file is a JSON array of rows keyed by Trove's **column names** (snake_case), one
 * row per line so that it can be written and read as a stream. Ids are those of the exporting
 * instance; they only link rows of the same zip to each other, and a restore gives every row a
 * new id. The group's own columns (`group_id`) are left out: a backup restores into the group
 * that imports it.
 *
 * A restore reads a table missing from the zip as no rows and a missing count as 0, so tables
 * added to `trove-1` later (`entity_stock` and `checkouts`) are simply absent from the zips
 * written before them, which restore as they always did.
 *
 * Not included: the group's members, invitations, API keys and sessions (they belong to
 * accounts, not to the collection), and its notifiers, whose URLs are secrets encrypted with the
 * exporting instance's key: a zip that users download and keep must not carry them in clear,
 * and encrypted they are useless to any other instance.
 *
 * The schema version is a string, `trove-1`, so it can never be taken for Homebox's numbered
 * versions (Homebox writes `schemaVersion: 1` with its own column names).
 */
export const TROVE_BACKUP_SCHEMA = 'trove-1';

/** The tables of a backup, in the order a restore inserts them. */
export const BACKUP_TABLES = [
  'entity_types',
  'entity_templates',
  'template_fields',
  'tags',
  'entities',
  'entity_fields',
  'entity_tags',
  'maintenance_entries',
  'entity_stock',
  'checkouts',
  'attachments',
] as const;

export type BackupTable = (typeof BACKUP_TABLES)[number];

export const MANIFEST_ENTRY = 'manifest.json';

/** Folder of the stored files' entries: `attachments/<file>`. */
export const ATTACHMENT_FILES_FOLDER = 'attachments/';

/** The zip entry of a table's rows. */
export function tableEntryName(table: BackupTable): string {
  return `${table}.json`;
}

/** The zip entry of a stored file. */
export function attachmentEntryName(file: string): string {
  return `${ATTACHMENT_FILES_FOLDER}${file}`;
}

/** A file name usable as `attachments/<file>`: one safe path segment. */
export const BACKUP_FILE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

/** `manifest.json` of a `trove-1` zip. */
export interface BackupManifest {
  schemaVersion: typeof TROVE_BACKUP_SCHEMA;
  /** ISO 8601. */
  exportedAt: string;
  /** The exported group's id (on the exporting instance). */
  groupId: string;
  /** Trove's version that wrote the zip. */
  troveVersion: string;
  /** Rows per table, and `files`: the number of `attachments/<file>` entries. */
  counts: Record<BackupTable | 'files', number>;
}

/*
 * Value conventions of the rows: timestamps are ISO 8601 strings with their full precision
 * (`2026-11-22T18:30:49.123456+00:00`), dates `YYYY-MM-DD`, `numeric` and `bigint` columns
 * decimal strings (exact), `double precision` and `integer` columns JSON numbers. Ids are
 * strings; a restore only requires that they be unique per table and that references match.
 */

interface BackupTimestamps {
  id: string;
  created_at: string;
  updated_at: string;
}

export type BackupFieldType = 'text' | 'number' | 'boolean' | 'time';

export interface BackupEntityTypeRow extends BackupTimestamps {
  name: string;
  description: string;
  icon: string;
  is_location: boolean;
  /** A template of `entity_templates`, or null. */
  default_template_id: string | null;
}

export interface BackupTemplateRow extends BackupTimestamps {
  name: string;
  description: string;
  notes: string;
  default_name: string;
  default_description: string;
  default_manufacturer: string;
  default_model_number: string;
  default_quantity: number;
  default_insured: boolean;
  default_lifetime_warranty: boolean;
  default_warranty_details: string;
  /** An entity of `entities`, or null. */
  default_location_id: string | null;
  /** Tags of `tags`. */
  default_tag_ids: string[];
  include_purchase_fields: boolean;
  include_sold_fields: boolean;
  include_warranty_fields: boolean;
}

export interface BackupTemplateFieldRow extends BackupTimestamps {
  template_id: string;
  name: string;
  description: string;
  type: BackupFieldType;
  text_value: string;
  /** bigint, decimal string. */
  number_value: string;
  boolean_value: boolean;
  time_value: string | null;
  position: number;
}

export interface BackupTagRow extends BackupTimestamps {
  parent_id: string | null;
  name: string;
  description: string;
  color: string;
  icon: string;
}

export interface BackupEntityRow extends BackupTimestamps {
  entity_type_id: string;
  parent_id: string | null;
  name: string;
  description: string;
  import_ref: string | null;
  notes: string;
  quantity: number;
  insured: boolean;
  archived: boolean;
  /** bigint, decimal string. */
  asset_id: string;
  serial_number: string;
  model_number: string;
  manufacturer: string;
  lifetime_warranty: boolean;
  warranty_expires: string | null;
  warranty_details: string;
  purchase_date: string | null;
  purchase_from: string;
  /** numeric, decimal string. */
  purchase_price: string;
  sold_date: string | null;
  sold_to: string;
  /** numeric, decimal string. */
  sold_price: string;
  sold_notes: string;
  sync_child_entity_locations: boolean;
}

export interface BackupEntityFieldRow extends BackupTimestamps {
  entity_id: string;
  name: string;
  description: string;
  type: BackupFieldType;
  text_value: string;
  /** bigint, decimal string. */
  number_value: string;
  boolean_value: boolean;
  time_value: string | null;
  position: number;
}

export interface BackupEntityTagRow {
  entity_id: string;
  tag_id: string;
}

export interface BackupMaintenanceEntryRow extends BackupTimestamps {
  entity_id: string;
  name: string;
  description: string;
  date: string | null;
  scheduled_date: string | null;
  /** numeric, decimal string. */
  cost: string;
}

/**
 * An entity's stock settings, keyed by its entity (one row per entity that has settings). The
 * bookkeeping of alerts is not exported: a restore marks an entity that is already at or below
 * its minimum as alerted (no alert for restored data) and announces expiry days afresh.
 */
export interface BackupEntityStockRow {
  entity_id: string;
  min_quantity: number | null;
  reorder_quantity: number | null;
  expires_on: string | null;
  notes: string;
  created_at: string;
  updated_at: string;
}

/**
 * A check-out of some of an entity's quantity. `member_id` and `checked_out_by` are user ids of
 * the exporting instance: a restore keeps them only for users who are members of the importing
 * group. A member it drops is named by `member_name` (the member's name when exported) in
 * `borrower`.
 */
export interface BackupCheckoutRow extends BackupTimestamps {
  entity_id: string;
  quantity: number;
  returned_quantity: number;
  /** A user of the exporting instance, or null for an outside borrower. */
  member_id: string | null;
  /** The member's name when exported; null without a member. */
  member_name: string | null;
  /** An outside borrower's name, or null. */
  borrower: string | null;
  due_on: string | null;
  notes: string;
  /** The user who checked it out (exporting instance), or null. */
  checked_out_by: string | null;
  returned_at: string | null;
}

export type BackupAttachmentType =
  'attachment' | 'photo' | 'manual' | 'warranty' | 'receipt' | 'thumbnail';

export interface BackupAttachmentRow extends BackupTimestamps {
  entity_id: string;
  type: BackupAttachmentType;
  primary: boolean;
  title: string;
  mime_type: string;
  /** Another row of `attachments` (type `thumbnail`), or null. */
  thumbnail_id: string | null;
  /**
   * The stored file: the zip holds it as `attachments/<file>` (`BACKUP_FILE_NAME`). Rows that
   * share a file name share the file. Null for a link attachment.
   */
  file: string | null;
  /** A link attachment's URL (`mime_type` `link/url`); null when the row has a file. */
  link: string | null;
}

/** The row shape of each table. */
export interface BackupRows {
  entity_types: BackupEntityTypeRow;
  entity_templates: BackupTemplateRow;
  template_fields: BackupTemplateFieldRow;
  tags: BackupTagRow;
  entities: BackupEntityRow;
  entity_fields: BackupEntityFieldRow;
  entity_tags: BackupEntityTagRow;
  maintenance_entries: BackupMaintenanceEntryRow;
  entity_stock: BackupEntityStockRow;
  checkouts: BackupCheckoutRow;
  attachments: BackupAttachmentRow;
}

/**
 * What a restore reads: a backup in Trove's shapes, whatever zip it came from (Trove's own
 * `trove-1`, or Homebox's schema 1 translated). Everything is a stream: a restore holds at most
 * one batch of rows and one file's chunk in memory.
 *
 * - `manifest` is known once the source is open (Homebox's is translated into Trove's shape;
 *   its `counts` are used for progress only).
 * - `rows(table)` yields the table's rows in an order where a row's own references to rows of
 *   the same table may come later (a restore sets `parent_id`/`thumbnail_id` in a second pass).
 *   It may be called more than once per table; each call reads the table again from its start.
 *   A table missing from the backup yields nothing.
 * - `openFile(file)` streams the bytes of a file named by `BackupAttachmentRow.file`; it may be
 *   called more than once for the same file. A missing file rejects with `BackupFormatError`.
 * - `close()` releases the zip.
 */
export interface BackupSource {
  readonly manifest: BackupManifest;
  rows<T extends BackupTable>(table: T): AsyncIterable<BackupRows[T]>;
  openFile(file: string): Promise<Readable>;
  close(): Promise<void>;
}

/** A backup that cannot be read as one: answered with a 4xx and its message. */
export class BackupFormatError extends Error {
  constructor(
    message: string,
    /** HTTP status when the error is found before the import is queued. */
    readonly status: 400 | 413 | 422 = 400,
  ) {
    super(message);
    this.name = 'BackupFormatError';
  }
}
