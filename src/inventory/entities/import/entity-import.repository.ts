import { Injectable } from '@nestjs/common';
import { Database } from '../../../platform/database/database.js';
import {
  BY_IMPORT_REFS,
  DELETE_FIELDS_OF,
  DELETE_TAGS_OF,
  IMPORTED_COLUMNS,
  INSERT_IMPORTED,
  INSERT_TAG_PAIRS,
  INSERT_TEXT_FIELDS,
  IN_CYCLES,
  LOCATIONS,
  RESERVE_ASSET_IDS,
  SET_PARENTS,
  UPDATE_IMPORTED,
} from './entity-import.sql.js';

/** The editable columns an import writes, by their snake_case names (see IMPORTED_COLUMNS). */
export type ImportedColumns = Record<string, string | number | boolean | null>;

/** An entity an import inserts: its id is chosen beforehand. */
export interface ImportedInsert {
  id: string;
  entityTypeId: string;
  assetId: bigint;
  columns: ImportedColumns;
}

/** An entity an import replaces; a null asset id keeps the current one. */
export interface ImportedUpdate {
  id: string;
  assetId: bigint | null;
  columns: ImportedColumns;
}

export interface ImportRefRow {
  id: string;
  import_ref: string;
  parent_id: string | null;
}

export interface LocationRow {
  id: string;
  name: string;
  parent_id: string | null;
}

/** The statements of a CSV import into the group's entities (EntityImportService). */
@Injectable()
export class EntityImportRepository {
  constructor(private readonly db: Database) {}

  /**
   * Reserves asset ids of the group for an import: returns the first, one above the group's
   * highest and above `above`; the caller may use as many numbers from it as it needs, since the
   * group row stays locked (as for `entity_next_asset_id`) until the unit of work ends.
   */
  async reserveAssetIds(groupId: string, above: bigint): Promise<bigint> {
    const [row] = await this.db.query<{ first: string }>(RESERVE_ASSET_IDS, [
      groupId,
      String(above),
    ]);
    return BigInt(row.first);
  }

  /** The group's entities with these import refs. */
  findByImportRefs(groupId: string, refs: string[]): Promise<ImportRefRow[]> {
    if (refs.length === 0) return Promise.resolve([]);
    return this.db.query<ImportRefRow>(BY_IMPORT_REFS, [groupId, refs]);
  }

  /** The group's location entities with their parents, oldest first. */
  findLocations(groupId: string): Promise<LocationRow[]> {
    return this.db.query<LocationRow>(LOCATIONS, [groupId]);
  }

  /** Inserts entities of the group in one statement. */
  async insertImported(groupId: string, rows: ImportedInsert[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.query(INSERT_IMPORTED, [
      groupId,
      rows.map((row) => row.id),
      rows.map((row) => row.entityTypeId),
      rows.map((row) => String(row.assetId)),
      ...columnArrays(rows),
    ]);
  }

  /** Replaces the editable state of entities of the group in one statement (types are kept). */
  async updateImported(groupId: string, rows: ImportedUpdate[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.query(UPDATE_IMPORTED, [
      groupId,
      rows.map((row) => row.id),
      rows.map((row) => (row.assetId === null ? null : String(row.assetId))),
      ...columnArrays(rows),
    ]);
  }

  /**
   * Replaces the tags of the group's entities `entityIds` by the pairs given; the caller holds
   * the group's tag tree (`TagsService.holdTree`).
   */
  async replaceTagsOf(
    entityIds: string[],
    pairs: { entityId: string; tagId: string }[],
  ): Promise<void> {
    if (entityIds.length > 0) await this.db.query(DELETE_TAGS_OF, [entityIds]);
    if (pairs.length === 0) return;
    await this.db.query(INSERT_TAG_PAIRS, [
      pairs.map((pair) => pair.entityId),
      pairs.map((pair) => pair.tagId),
    ]);
  }

  /** Replaces the custom fields of `entityIds` by text fields. */
  async replaceTextFieldsOf(
    entityIds: string[],
    fields: { entityId: string; name: string; value: string; position: number }[],
  ): Promise<void> {
    if (entityIds.length > 0) await this.db.query(DELETE_FIELDS_OF, [entityIds]);
    if (fields.length === 0) return;
    await this.db.query(INSERT_TEXT_FIELDS, [
      fields.map((field) => field.entityId),
      fields.map((field) => field.name),
      fields.map((field) => field.value),
      fields.map((field) => field.position),
    ]);
  }

  /** Sets the parents of entities of the group: pairs of (entity, parent). */
  async setParents(groupId: string, pairs: { id: string; parentId: string }[]): Promise<void> {
    if (pairs.length === 0) return;
    await this.db.query(SET_PARENTS, [
      groupId,
      pairs.map((pair) => pair.id),
      pairs.map((pair) => pair.parentId),
    ]);
  }

  /** Which of these entities of the group are their own ancestors. */
  async findInCycles(groupId: string, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.query<{ id: string }>(IN_CYCLES, [groupId, ids]);
    return rows.map((row) => row.id);
  }
}

/** One array per IMPORTED_COLUMNS column, in that order. */
function columnArrays(rows: { columns: ImportedColumns }[]): unknown[][] {
  return IMPORTED_COLUMNS.map(([column]) => rows.map((row) => row.columns[column] ?? null));
}
