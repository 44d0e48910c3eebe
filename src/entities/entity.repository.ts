import { Injectable } from '@nestjs/common';
import { advisoryLock } from '../database/advisory-lock.js';
import { currentAttribution } from '../database/change-attribution.js';
import { Database } from '../database/database.js';
import { wouldCycle } from '../database/hierarchy.sql.js';
import { OwnedRepository } from '../database/owned.js';
import { tagTreeLock } from '../tags/tag-tree-lock.js';
import type { EntityFilter } from './entity-filter.js';
import { EntityFieldRecord } from './entity-field.record.js';
import type { EntityViewRow } from './entity.mapper.js';
import { EntityRecord } from './entity.record.js';
import {
  ADD_TAGS,
  BY_IMPORT_REFS,
  CLEAR_SENTINEL_DATES,
  COPY_FIELDS,
  DELETE_ALL_OF_GROUP,
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
  FIELD_NAMES,
  FIELD_VALUES,
  IDS_BY_ASSET_ID,
  WARRANTIES_ENDING,
  NEAREST_LOCATION,
  NUMBER_MISSING_ASSET_IDS,
  FILL_MISSING_IMPORT_REFS,
  PATH,
  TREE_ROWS,
  LOCATION_TREE_ROWS,
  LOCATION_TREE_VERSION,
  insertEntity,
} from './entity.sql.js';
import { CHILD_SUMMARIES, SUMMARY, pageOfViews } from './entity-view.sql.js';
import type { BulkFieldName } from './dto/bulk-entity-change.dto.js';
import {
  ADD_TAGS as BULK_ADD_TAGS,
  AMONG_PARENT_AND_ANCESTORS,
  DELETE as BULK_DELETE,
  LOCK_OWNED,
  MOVE as BULK_MOVE,
  REMOVE_TAGS as BULK_REMOVE_TAGS,
  SET_ARCHIVED as BULK_SET_ARCHIVED,
  BULK_FIELD_COLUMNS,
  setFields as bulkSetFields,
} from './entity-bulk.sql.js';
import type { BillOfMaterialsRow, EntityExportRow } from './entity-export.js';
import { BILL_OF_MATERIALS_BATCH, EXPORT_BATCH, EXPORT_FIELD_NAMES } from './entity-export.sql.js';
import type {
  BackupEntityFieldRow,
  BackupEntityRow,
  BackupEntityTagRow,
} from '../collection-backups/backup-format.js';
import {
  BACKUP_ENTITIES,
  BACKUP_ENTITY_FIELDS,
  BACKUP_ENTITY_TAGS,
  COUNT_ENTITIES,
  RESTORE_ENTITIES,
  RESTORE_ENTITY_FIELDS,
  RESTORE_ENTITY_PARENTS,
  RESTORE_ENTITY_TAGS,
} from './entity-backup.sql.js';

/** Columns the database or the insert fills in, never taken from the values given. */
const GENERATED_PROPERTIES = new Set(['id', 'groupId', 'assetId', 'createdAt', 'updatedAt']);

/** What an insert is given: a name, a type (null: the group's default item type) and any columns. */
export type InsertableEntity = Partial<Omit<EntityRecord, 'entityTypeId'>> &
  Pick<EntityRecord, 'name'> & { entityTypeId: string | null };

export interface InsertedEntity {
  id: string;
  /** The allocated asset id, as the database returns a bigint: a decimal string. */
  assetId: string;
  createdAt: Date;
}

/** The stored values of one custom field of an entity. */
export type EntityFieldValues = Pick<
  EntityFieldRecord,
  'type' | 'name' | 'textValue' | 'numberValue' | 'booleanValue' | 'position'
> &
  Partial<Pick<EntityFieldRecord, 'description' | 'timeValue'>>;

export interface EntityPathRow {
  id: string;
  name: string;
  is_location: boolean;
}

export interface EntityTreeRow {
  id: string;
  name: string;
  parent_id: string | null;
  is_location: boolean;
}

/** An entity whose warranty ends soon, with its group. */
export interface EndingWarranty {
  groupId: string;
  id: string;
  name: string;
  warrantyExpires: string;
}

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

/** The only code that reads or writes the `entities`, `entity_fields` and `entity_tags` tables. */
@Injectable()
export class EntityRepository extends OwnedRepository<EntityRecord> {
  constructor(db: Database) {
    super(db, EntityRecord, 'entity');
  }

  /** Entities of every group whose warranty ends between `from` and `to` (`YYYY-MM-DD`). */
  findWarrantiesEnding(from: string, to: string): Promise<EndingWarranty[]> {
    return this.db.query<EndingWarranty>(WARRANTIES_ENDING, [from, to]);
  }

  /** How many entities (of any group) are of type `typeId`. */
  async countOfType(typeId: string): Promise<number> {
    const [row] = await this.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM entities WHERE entity_type_id = $1',
      [typeId],
    );
    return row.count;
  }

  /**
   * Inserts an entity with the next asset id of the group, and its tags, in one prepared
   * statement, if its type (null: the group's oldest item type), parent and tags are all of the
   * group; undefined when one is not. The statement attributes the change to the context's
   * caller and sends `notice` when it stores the entity, so outside a unit of work it is one
   * by itself. `entity_next_asset_id` locks the group row until the unit of work ends (at
   * once outside one), so concurrent inserts never share an asset id.
   */
  async tryInsert(
    groupId: string,
    values: InsertableEntity,
    tagIds: string[],
    notice: { channel: string; payload: string },
  ): Promise<InsertedEntity | undefined> {
    const metadata = this.db.manager.connection.getMetadata(EntityRecord);
    const params: unknown[] = [
      groupId,
      [...new Set(tagIds)],
      values.entityTypeId,
      values.parentId ?? null,
      ...currentAttribution(),
      notice.channel,
      notice.payload,
    ];
    const columns: string[] = [];
    const placeholders: string[] = [];
    for (const [property, value] of Object.entries(values)) {
      if (value === undefined || (typeof value === 'object' && value !== null)) continue;
      if (GENERATED_PROPERTIES.has(property) || property === 'entityTypeId') continue;
      const column = metadata.columns.find((candidate) => candidate.propertyName === property);
      if (!column) continue;
      params.push(value);
      columns.push(`, "${column.databaseName}"`);
      placeholders.push(`, $${params.length}`);
    }
    type Row = { id: string; asset_id: string; created_at: Date };
    const [row] = await this.db.prepared<Row>(
      insertEntity(columns.join(''), placeholders.join('')),
      params,
    );
    return row && { id: row.id, assetId: String(row.asset_id), createdAt: row.created_at };
  }

  /** Adds locations of these names to a new group, with asset ids 1, 2, ... in that order. */
  async insertStarterLocations(
    groupId: string,
    locationTypeId: string,
    names: readonly string[],
  ): Promise<void> {
    await this.db.repository(EntityRecord).insert(
      names.map((name, index) => ({
        groupId,
        entityTypeId: locationTypeId,
        name,
        quantity: 1,
        assetId: String(index + 1),
      })),
    );
  }

  /** An entity of the group with its tags, or null. */
  findWithTags(groupId: string, id: string): Promise<EntityRecord | null> {
    return this.db.repository(EntityRecord).findOne({
      where: { id, groupId },
      relations: { tags: true },
    });
  }

  save(record: EntityRecord): Promise<EntityRecord> {
    return this.db.repository(EntityRecord).save(record);
  }

  async rename(groupId: string, id: string, name: string): Promise<void> {
    await this.db.repository(EntityRecord).update({ id, groupId }, { name });
  }

  /** Deletes an entity of the group (its fields, attachments and maintenance go with it). */
  async delete(groupId: string, id: string): Promise<boolean> {
    await this.keepTagTree(groupId);
    const result = await this.db.repository(EntityRecord).delete({ id, groupId });
    return (result.affected ?? 0) > 0;
  }

  /**
   * Numbers the group's entities without an asset id (0) after its highest, oldest first; how
   * many it numbered. The first statement locks the group row until the unit of work ends (as an
   * insert does), so no entity created meanwhile can take one of those numbers.
   */
  async numberMissingAssetIds(groupId: string): Promise<number> {
    const [next] = await this.db.query<{ first: string }>(
      'SELECT entity_next_asset_id($1) AS first',
      [groupId],
    );
    return this.countFrom(NUMBER_MISSING_ASSET_IDS, [groupId, next.first]);
  }

  /** Gives the group's entities without an import ref a random one; how many it changed. */
  fillMissingImportRefs(groupId: string): Promise<number> {
    return this.countFrom(FILL_MISSING_IMPORT_REFS, [groupId]);
  }

  /** Clears the group's purchase, sold and warranty dates before year 100; entities changed. */
  clearSentinelDates(groupId: string): Promise<number> {
    return this.countFrom(CLEAR_SENTINEL_DATES, [groupId]);
  }

  /** Deletes every entity of the group with what belongs to it; how many entities. */
  async deleteAllOfGroup(groupId: string): Promise<number> {
    await this.keepTagTree(groupId);
    return this.countFrom(DELETE_ALL_OF_GROUP, [groupId]);
  }

  /** Replaces the tags of entity `entityId` of the group. */
  async setTags(groupId: string, entityId: string, tagIds: string[]): Promise<void> {
    await this.keepTagTree(groupId);
    await this.db.query('DELETE FROM entity_tags WHERE entity_id = $1', [entityId]);
    if (tagIds.length > 0) await this.db.query(ADD_TAGS, [entityId, tagIds]);
  }

  /**
   * Makes moves of entities within a group take turns until the unit of work ends, so two
   * concurrent moves cannot close a loop.
   */
  async lockMoves(groupId: string): Promise<void> {
    await advisoryLock(this.db, `entity-moves:${groupId}`);
  }

  /** Whether putting entity `id` under `parentId` would place it inside itself. */
  async wouldCycle(groupId: string, parentId: string, id: string): Promise<boolean> {
    const [row] = await this.db.query<{ cycle: boolean }>(wouldCycle('entities'), [
      groupId,
      parentId,
      id,
    ]);
    return row.cycle;
  }

  /**
   * Locks the group's entities among `ids` until the unit of work ends (in id order, so that
   * concurrent bulk changes do not deadlock); the ids of those it found.
   */
  async lockOwned(groupId: string, ids: string[]): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(LOCK_OWNED, [groupId, ids]);
    return rows.map((row) => row.id);
  }

  /**
   * Which of `ids` are entity `parentId` of the group or one of its ancestors: putting those
   * under `parentId` would place them inside themselves.
   */
  async amongParentAndAncestors(
    groupId: string,
    parentId: string,
    ids: string[],
  ): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(AMONG_PARENT_AND_ANCESTORS, [
      groupId,
      parentId,
      ids,
    ]);
    return rows.map((row) => row.id);
  }

  /** Puts the group's entities `ids` under `parentId` (null: the top level); how many moved. */
  moveMany(groupId: string, ids: string[], parentId: string | null): Promise<number> {
    return this.countFrom(BULK_MOVE, [groupId, ids, parentId]);
  }

  /** Adds the tags to the group's entities `ids`; how many entities gained one. */
  addTagsToMany(groupId: string, ids: string[], tagIds: string[]): Promise<number> {
    return this.countFrom(BULK_ADD_TAGS, [groupId, ids, tagIds]);
  }

  /** Removes the tags from the group's entities `ids`; how many entities lost one. */
  async removeTagsFromMany(groupId: string, ids: string[], tagIds: string[]): Promise<number> {
    await this.keepTagTree(groupId);
    return this.countFrom(BULK_REMOVE_TAGS, [groupId, ids, tagIds]);
  }

  /** Archives or unarchives the group's entities `ids`; how many changed. */
  setArchivedOfMany(groupId: string, ids: string[], archived: boolean): Promise<number> {
    return this.countFrom(BULK_SET_ARCHIVED, [groupId, ids, archived]);
  }

  /** Sets these attributes on the group's entities `ids`; how many had another value. */
  setFieldsOfMany(
    groupId: string,
    ids: string[],
    fields: Partial<Record<BulkFieldName, unknown>>,
  ): Promise<number> {
    const names = (Object.keys(fields) as BulkFieldName[]).filter(
      (name) => Object.hasOwn(BULK_FIELD_COLUMNS, name) && fields[name] !== undefined,
    );
    return this.countFrom(bulkSetFields(names), [
      groupId,
      ids,
      ...names.map((name) => fields[name]),
    ]);
  }

  /** Deletes the group's entities `ids` with what belongs to them; how many. */
  async deleteMany(groupId: string, ids: string[]): Promise<number> {
    await this.keepTagTree(groupId);
    return this.countFrom(BULK_DELETE, [groupId, ids]);
  }

  /** The ids of the group's entities with this asset id, by name. */
  async idsByAssetId(groupId: string, assetId: bigint): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(IDS_BY_ASSET_ID, [groupId, String(assetId)]);
    return rows.map((row) => row.id);
  }

  /** An entity of the group and its ancestors, from the top down; empty when it is not one. */
  path(groupId: string, id: string): Promise<EntityPathRow[]> {
    return this.db.query<EntityPathRow>(PATH, [id, groupId]);
  }

  /** The version of the group's tree of locations: the same for as long as the tree is. */
  async locationTreeVersion(groupId: string): Promise<string> {
    const [row] = await this.db.prepared<{ version: string }>(LOCATION_TREE_VERSION, [groupId]);
    return row.version;
  }

  /** The group's locations, and with `withItems` its items too. */
  treeRows(groupId: string, withItems: boolean): Promise<EntityTreeRow[]> {
    return this.db.query<EntityTreeRow>(withItems ? TREE_ROWS : LOCATION_TREE_ROWS, [groupId]);
  }

  /** The entity of the group itself or its nearest ancestor that is a location, if any. */
  async nearestLocation(groupId: string, id: string): Promise<EntityRecord | null> {
    const [row] = await this.db.query<{ id: string }>(NEAREST_LOCATION, [groupId, id]);
    return row ? this.db.repository(EntityRecord).findOneBy({ id: row.id, groupId }) : null;
  }

  async fieldNames(groupId: string): Promise<string[]> {
    const rows = await this.db.query<{ name: string }>(FIELD_NAMES, [groupId]);
    return rows.map((row) => row.name);
  }

  async fieldValues(groupId: string, field: string): Promise<string[]> {
    const rows = await this.db.query<{ value: string }>(FIELD_VALUES, [groupId, field]);
    return rows.map((row) => row.value);
  }

  findFields(entityId: string): Promise<EntityFieldRecord[]> {
    return this.db.repository(EntityFieldRecord).find({ where: { entityId } });
  }

  async insertFields(entityId: string, fields: EntityFieldValues[]): Promise<void> {
    if (fields.length === 0) return;
    await this.db
      .repository(EntityFieldRecord)
      .insert(fields.map((field) => ({ ...field, entityId })));
  }

  async updateField(entityId: string, id: string, values: EntityFieldValues): Promise<void> {
    await this.db.repository(EntityFieldRecord).update({ id, entityId }, values);
  }

  async deleteFields(entityId: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .repository(EntityFieldRecord)
      .createQueryBuilder()
      .delete()
      .where('entity_id = :entityId AND id IN (:...ids)', { entityId, ids })
      .execute();
  }

  async copyFields(fromEntityId: string, toEntityId: string): Promise<void> {
    await this.db.query(COPY_FIELDS, [fromEntityId, toEntityId]);
  }

  /** The view rows of the given entities of the group, in the order given, with their ancestors. */
  childSummaryRows(groupId: string, ids: string[]): Promise<EntityViewRow[]> {
    return this.db.prepared<EntityViewRow>(CHILD_SUMMARIES, [groupId, ids]);
  }

  /** The view rows of the summary of one entity of the group; none when it is not one. */
  summaryRows(groupId: string, id: string): Promise<EntityViewRow[]> {
    return this.db.prepared<EntityViewRow>(SUMMARY, [groupId, id]);
  }

  /**
   * The view rows of one page of the group's entities that pass `filter`, in `order`; `limit`
   * null means all of them. One row even for an empty page, so the total always comes back.
   */
  pageRows(
    filter: EntityFilter,
    order: string,
    limit: number | null,
    offset: number,
  ): Promise<(EntityViewRow & { total: number })[]> {
    const params = [...filter.params, limit, offset];
    const sql = pageOfViews(filter, order, `$${params.length - 1}`, `$${params.length}`);
    // Prepared: its text depends on which filters are given, not on their values, and its plan
    // neither (each filter's matches are found by index first).
    return this.db.prepared<EntityViewRow & { total: number }>(sql, params);
  }

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

  /** Replaces the tags of the group's entities `entityIds` by the pairs given. */
  async replaceTagsOf(
    groupId: string,
    entityIds: string[],
    pairs: { entityId: string; tagId: string }[],
  ): Promise<void> {
    await this.keepTagTree(groupId);
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

  /** The custom-field names of the group's entities, in code point order: the export's columns. */
  async exportFieldNames(groupId: string): Promise<string[]> {
    const rows = await this.db.query<{ name: string }>(EXPORT_FIELD_NAMES, [groupId]);
    return rows.map((row) => row.name);
  }

  /**
   * Up to `limit` entities of the group, by id after `after` (null: from the first), for the
   * export. PostgreSQL cannot estimate how far the walk up the tree goes and guesses high, so
   * it would compile the statement (JIT), which costs more than running it: not for this one.
   */
  exportBatch(groupId: string, after: string | null, limit: number): Promise<EntityExportRow[]> {
    return this.db.transaction(async () => {
      await this.db.query('SET LOCAL jit = off');
      return this.db.query<EntityExportRow>(EXPORT_BATCH, [groupId, after, limit]);
    });
  }

  /** Up to `limit` entities of the group, by id after `after`, for the bill of materials. */
  billOfMaterialsBatch(
    groupId: string,
    after: string | null,
    limit: number,
  ): Promise<BillOfMaterialsRow[]> {
    return this.db.query<BillOfMaterialsRow>(BILL_OF_MATERIALS_BATCH, [groupId, after, limit]);
  }

  /** A page of the group's entities as backup rows, by id after `afterId`. */
  backupPage(groupId: string, afterId: string, limit: number): Promise<BackupEntityRow[]> {
    return this.db.query<BackupEntityRow>(BACKUP_ENTITIES, [groupId, afterId, limit]);
  }

  /** A page of the custom fields of the group's entities, by id after `afterId`. */
  backupFieldsPage(
    groupId: string,
    afterId: string,
    limit: number,
  ): Promise<BackupEntityFieldRow[]> {
    return this.db.query<BackupEntityFieldRow>(BACKUP_ENTITY_FIELDS, [groupId, afterId, limit]);
  }

  /** A page of the tag links of the group's entities, after the link `after`. */
  backupTagsPage(
    groupId: string,
    after: BackupEntityTagRow,
    limit: number,
  ): Promise<BackupEntityTagRow[]> {
    return this.db.query<BackupEntityTagRow>(BACKUP_ENTITY_TAGS, [
      groupId,
      after.entity_id,
      after.tag_id,
      limit,
    ]);
  }

  /** Inserts backup rows, ids remapped with `idKey`, without parents. */
  async restore(groupId: string, idKey: string, rows: BackupEntityRow[]): Promise<void> {
    await this.db.query(RESTORE_ENTITIES, [JSON.stringify(rows), idKey, groupId]);
  }

  /** Sets the parents of restored rows. */
  async restoreParents(groupId: string, idKey: string, rows: BackupEntityRow[]): Promise<void> {
    const links = rows
      .filter((row) => row.parent_id !== null && row.parent_id !== undefined)
      .map((row) => ({ id: row.id, parent_id: row.parent_id }));
    if (links.length > 0) {
      await this.db.query(RESTORE_ENTITY_PARENTS, [JSON.stringify(links), idKey, groupId]);
    }
  }

  async restoreFields(groupId: string, idKey: string, rows: BackupEntityFieldRow[]): Promise<void> {
    await this.db.query(RESTORE_ENTITY_FIELDS, [JSON.stringify(rows), idKey, groupId]);
  }

  async restoreTags(groupId: string, idKey: string, rows: BackupEntityTagRow[]): Promise<void> {
    await this.db.query(RESTORE_ENTITY_TAGS, [JSON.stringify(rows), idKey, groupId]);
  }

  async countOfGroup(groupId: string): Promise<{ locations: number; items: number }> {
    const [row] = await this.db.query<{ locations: number; items: number }>(COUNT_ENTITIES, [
      groupId,
    ]);
    return row;
  }

  /**
   * Keeps the group's tag tree as it is until the unit of work ends: takes the group's "tag tree"
   * lock shared (TagRepository.lockGroup takes it exclusive). Taken before links are removed,
   * whether directly or with their entities: the database's upkeep of the kept tag matches takes
   * it then anyway, and taking it first means a tag deleted meanwhile never waits on a link this
   * unit of work holds while this one waits on the deletion.
   */
  private keepTagTree(groupId: string): Promise<void> {
    return advisoryLock(this.db, tagTreeLock(groupId), 'shared');
  }

  /** Runs a statement that answers one row with a `count`. */
  private async countFrom(sql: string, params: unknown[]): Promise<number> {
    const [row] = await this.db.query<{ count: number }>(sql, params);
    return row.count;
  }
}

/** One array per IMPORTED_COLUMNS column, in that order. */
function columnArrays(rows: { columns: ImportedColumns }[]): unknown[][] {
  return IMPORTED_COLUMNS.map(([column]) => rows.map((row) => row.columns[column] ?? null));
}
