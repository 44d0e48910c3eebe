import { Injectable } from '@nestjs/common';
import { advisoryLock } from '../database/advisory-lock.js';
import { Database } from '../database/database.js';
import { wouldCycle } from '../database/hierarchy.sql.js';
import { OwnedRepository } from '../database/owned.js';
import type { EntityFilter } from './entity-filter.js';
import { EntityFieldRecord } from './entity-field.record.js';
import type { EntityViewRow } from './entity.mapper.js';
import { EntityRecord } from './entity.record.js';
import {
  ADD_TAGS,
  COPY_FIELDS,
  FIELD_NAMES,
  FIELD_VALUES,
  IDS_BY_ASSET_ID,
  NEAREST_LOCATION,
  PATH,
  TREE_ROWS,
  insertEntity,
} from './entity.sql.js';
import { CHILD_SUMMARIES, SUMMARY, pageOfViews } from './entity-view.sql.js';

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

/** The only code that reads or writes the `entities`, `entity_fields` and `entity_tags` tables. */
@Injectable()
export class EntityRepository extends OwnedRepository<EntityRecord> {
  constructor(db: Database) {
    super(db, EntityRecord, 'entity');
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
   * group; undefined when one is not. `entity_next_asset_id` locks the group row until the unit
   * of work ends (at once outside one), so concurrent inserts never share an asset id.
   */
  async tryInsert(
    groupId: string,
    values: InsertableEntity,
    tagIds: string[],
  ): Promise<InsertedEntity | undefined> {
    const metadata = this.db.manager.connection.getMetadata(EntityRecord);
    const params: unknown[] = [
      groupId,
      [...new Set(tagIds)],
      values.entityTypeId,
      values.parentId ?? null,
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
    const result = await this.db.repository(EntityRecord).delete({ id, groupId });
    return (result.affected ?? 0) > 0;
  }

  async setTags(entityId: string, tagIds: string[]): Promise<void> {
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

  /** The ids of the group's entities with this asset id, by name. */
  async idsByAssetId(groupId: string, assetId: number): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(IDS_BY_ASSET_ID, [groupId, assetId]);
    return rows.map((row) => row.id);
  }

  /** An entity of the group and its ancestors, from the top down; empty when it is not one. */
  path(groupId: string, id: string): Promise<EntityPathRow[]> {
    return this.db.query<EntityPathRow>(PATH, [id, groupId]);
  }

  /** The group's locations, and with `withItems` its items too. */
  treeRows(groupId: string, withItems: boolean): Promise<EntityTreeRow[]> {
    return this.db.query<EntityTreeRow>(TREE_ROWS, [groupId, withItems]);
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
    const sql = pageOfViews(filter.where, order, `$${params.length - 1}`, `$${params.length}`);
    return this.db.query<EntityViewRow & { total: number }>(sql, params);
  }
}
