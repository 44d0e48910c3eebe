import { Injectable } from '@nestjs/common';
import { advisoryLock } from '../../../platform/database/advisory-lock.js';
import { currentAttribution } from '../../../platform/database/change-attribution.js';
import { Database } from '../../../platform/database/database.js';
import { wouldCycle } from '../../../platform/database/hierarchy.sql.js';
import { OwnedRepository } from '../../../platform/database/owned.js';
import { EntityRecord } from './entity.record.js';
import {
  ADD_TAGS,
  CLEAR_SENTINEL_DATES,
  DELETE_ALL_OF_GROUP,
  FILL_MISSING_IMPORT_REFS,
  NEAREST_LOCATION,
  NUMBER_MISSING_ASSET_IDS,
  WARRANTIES_ENDING,
  insertEntity,
} from './entity.sql.js';

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

/** An entity whose warranty ends soon, with its group. */
export interface EndingWarranty {
  groupId: string;
  id: string;
  name: string;
  warrantyExpires: string;
}

/**
 * The writes of one entity at a time to the `entities` table and its tags (inserts, edits, moves,
 * deletions), the owned lookup, and the group-wide updates of the inventory actions. The other
 * sub-modules of entities (views, bulk, import, export) have repositories of their own; collection
 * backups restore the table themselves (docs/architecture.md, "Table ownership").
 */
@Injectable()
export class EntityRepository extends OwnedRepository<EntityRecord> {
  constructor(db: Database) {
    super(db, EntityRecord, 'entity');
  }

  /** Entities of every group whose warranty ends between `from` and `to` (`YYYY-MM-DD`). */
  findWarrantiesEnding(from: string, to: string): Promise<EndingWarranty[]> {
    return this.db.query<EndingWarranty>(WARRANTIES_ENDING, [from, to]);
  }

  /**
   * Inserts an entity with the next asset id of the group, and its tags, in one prepared
   * statement, if its type (null: the group's oldest item type), parent and tags are all of the
   * group; undefined when one is not. Outside a unit of work the statement is one by itself,
   * and it attributes the change to the context's caller as a unit of work would.
   * `entity_next_asset_id` locks the group row until the unit of work ends (at the end of the
   * statement outside one), so concurrent inserts never share an asset id.
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
      ...currentAttribution(),
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

  save(record: EntityRecord): Promise<EntityRecord> {
    return this.db.repository(EntityRecord).save(record);
  }

  async rename(groupId: string, id: string, name: string): Promise<void> {
    await this.db.repository(EntityRecord).update({ id, groupId }, { name });
  }

  async setQuantity(groupId: string, id: string, quantity: number): Promise<void> {
    await this.db.repository(EntityRecord).update({ id, groupId }, { quantity });
  }

  /**
   * Deletes an entity of the group (its fields, tag links, attachments and maintenance go with
   * it); the caller holds the group's tag tree (`TagsService.holdTree`).
   */
  async delete(groupId: string, id: string): Promise<void> {
    await this.db.repository(EntityRecord).delete({ id, groupId });
  }

  /**
   * Deletes every entity of the group with what belongs to it; how many entities. The caller
   * holds the group's tag tree.
   */
  deleteAllOfGroup(groupId: string): Promise<number> {
    return this.db.count(DELETE_ALL_OF_GROUP, [groupId]);
  }

  /** Replaces the tags of entity `entityId`; the caller holds the group's tag tree. */
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

  /** The entity of the group itself or its nearest ancestor that is a location, if any. */
  async nearestLocation(groupId: string, id: string): Promise<EntityRecord | null> {
    const [row] = await this.db.query<{ id: string }>(NEAREST_LOCATION, [groupId, id]);
    return row ? this.findOwned(groupId, row.id) : null;
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
    return this.db.count(NUMBER_MISSING_ASSET_IDS, [groupId, next.first]);
  }

  /** Gives the group's entities without an import ref a random one; how many it changed. */
  fillMissingImportRefs(groupId: string): Promise<number> {
    return this.db.count(FILL_MISSING_IMPORT_REFS, [groupId]);
  }

  /** Clears the group's purchase, sold and warranty dates before year 100; entities changed. */
  clearSentinelDates(groupId: string): Promise<number> {
    return this.db.count(CLEAR_SENTINEL_DATES, [groupId]);
  }
}
