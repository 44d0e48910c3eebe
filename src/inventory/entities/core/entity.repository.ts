import { Injectable } from '@nestjs/common';
import { advisoryLock } from '../../../platform/database/advisory-lock.js';
import { currentAttribution } from '../../../platform/database/change-attribution.js';
import { Database } from '../../../platform/database/database.js';
import { wouldCycle } from '../../../platform/database/hierarchy.sql.js';
import { OwnedRepository } from '../../../platform/database/owned.js';
import { EntityRecord } from './entity.record.js';
import {
  ADD_TAGS,
  DELETE_ALL_OF_GROUP,
  IDS_BY_ASSET_ID,
  WARRANTIES_ENDING,
  NEAREST_LOCATION,
  PATH,
  TREE_ROWS,
  LOCATION_TREE_ROWS,
  LOCATION_TREE_VERSION,
  insertEntity,
} from './entity.sql.js';
import { countFrom, keepTagTree } from './entity-statements.js';

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

/**
 * The only code that reads or writes the `entities` table and the tags of one entity at a time:
 * the owned lookup, inserts, edits, moves and the reads of one entity or of the group's tree.
 * Views, fields, bulk changes, actions, import and export have their own repositories; collection
 * backups read and restore the table themselves (docs/architecture.md, "Table ownership").
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

  save(record: EntityRecord): Promise<EntityRecord> {
    return this.db.repository(EntityRecord).save(record);
  }

  async rename(groupId: string, id: string, name: string): Promise<void> {
    await this.db.repository(EntityRecord).update({ id, groupId }, { name });
  }

  /** Deletes an entity of the group (its fields, attachments and maintenance go with it). */
  async delete(groupId: string, id: string): Promise<void> {
    await keepTagTree(this.db, groupId);
    await this.db.repository(EntityRecord).delete({ id, groupId });
  }

  /** Deletes every entity of the group with what belongs to it; how many entities. */
  async deleteAllOfGroup(groupId: string): Promise<number> {
    await keepTagTree(this.db, groupId);
    return countFrom(this.db, DELETE_ALL_OF_GROUP, [groupId]);
  }

  /** Replaces the tags of entity `entityId` of the group. */
  async setTags(groupId: string, entityId: string, tagIds: string[]): Promise<void> {
    await keepTagTree(this.db, groupId);
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
    return row ? this.findOwned(groupId, row.id) : null;
  }
}
