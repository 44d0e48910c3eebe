import { Injectable } from '@nestjs/common';
import { Database } from '../../../platform/database/database.js';
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

/** The statements of bulk changes to the group's entities (EntityBulkService). */
@Injectable()
export class EntityBulkRepository {
  constructor(private readonly db: Database) {}

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
    return this.db.count(BULK_MOVE, [groupId, ids, parentId]);
  }

  /** Adds the tags to the group's entities `ids`; how many entities gained one. */
  addTagsToMany(groupId: string, ids: string[], tagIds: string[]): Promise<number> {
    return this.db.count(BULK_ADD_TAGS, [groupId, ids, tagIds]);
  }

  /** Removes the tags from the group's entities `ids`; how many entities lost one. */
  removeTagsFromMany(groupId: string, ids: string[], tagIds: string[]): Promise<number> {
    return this.db.count(BULK_REMOVE_TAGS, [groupId, ids, tagIds]);
  }

  /** Archives or unarchives the group's entities `ids`; how many changed. */
  setArchivedOfMany(groupId: string, ids: string[], archived: boolean): Promise<number> {
    return this.db.count(BULK_SET_ARCHIVED, [groupId, ids, archived]);
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
    return this.db.count(bulkSetFields(names), [
      groupId,
      ids,
      ...names.map((name) => fields[name]),
    ]);
  }

  /** Deletes the group's entities `ids` with what belongs to them; how many. */
  deleteMany(groupId: string, ids: string[]): Promise<number> {
    return this.db.count(BULK_DELETE, [groupId, ids]);
  }
}
