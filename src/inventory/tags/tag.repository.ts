import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { advisoryLock } from '../../platform/database/advisory-lock.js';
import { Database } from '../../platform/database/database.js';
import { nameOrder } from '../../platform/database/name-order.js';
import { OwnedRepository } from '../../platform/database/owned.js';
import { DELETE_ALL_OF_GROUP, PLACEMENT } from './tag.sql.js';
import { TagRecord } from './tag.record.js';

/**
 * The name of a group's "tag tree" advisory lock: taken exclusively by whoever changes the group's
 * tags (`lockGroup`), shared by whoever removes links to them (`holdTree`), and shared by the
 * database's upkeep of the kept tag matches, whose trigger functions (`tag-matches.schema.ts`)
 * build the same name as `'tag tree ' || group_id`.
 */
const tagTreeLock = (groupId: string): string => `tag tree ${groupId}`;

/** Where a tag would sit under a parent (see `PLACEMENT`). */
export interface TagPlacement {
  parentDepth: number;
  cycle: boolean;
  height: number;
}

export type TagValues = Pick<
  TagRecord,
  'groupId' | 'parentId' | 'name' | 'description' | 'color' | 'icon'
>;

/** The only code that reads or writes the `tags` table. */
@Injectable()
export class TagRepository extends OwnedRepository<TagRecord> {
  constructor(db: Database) {
    super(db, TagRecord, 'tag');
  }

  /** The group's tags among `ids` (ids of no tag of the group are left out), in no order. */
  findExisting(groupId: string, ids: string[]): Promise<TagRecord[]> {
    return this.db.repository(TagRecord).findBy({ id: In(ids), groupId });
  }

  /** Every tag of the group, by name. */
  findAll(groupId: string): Promise<TagRecord[]> {
    return this.ordered().where('t.group_id = :groupId', { groupId }).getMany();
  }

  /** The direct children of a tag, by name. */
  findChildren(groupId: string, id: string): Promise<TagRecord[]> {
    return this.ordered()
      .where('t.group_id = :groupId AND t.parent_id = :id', { groupId, id })
      .getMany();
  }

  async findParent(record: TagRecord): Promise<TagRecord | null> {
    if (!record.parentId) return null;
    return this.db
      .repository(TagRecord)
      .findOneBy({ id: record.parentId, groupId: record.groupId });
  }

  async placement(groupId: string, tagId: string | null, parentId: string): Promise<TagPlacement> {
    const [row] = await this.db.query<TagPlacement>(PLACEMENT, [groupId, parentId, tagId]);
    return row;
  }

  /**
   * Makes the unit of work the only one changing the group's tags until it ends: takes the
   * group's "tag tree" advisory lock exclusively, and notes so in the transaction's setting
   * `trove.tag_tree_locked`. The database's upkeep of the kept tag matches takes the same lock
   * shared (`tag-matches.schema.ts`), so a tag is never moved or deleted under it; within
   * this unit of work it sees the note and takes no lock of its own. Entities stay free to
   * reference the tags meanwhile.
   */
  async lockGroup(groupId: string): Promise<void> {
    await advisoryLock(this.db, tagTreeLock(groupId));
    await this.db.query(`SELECT set_config('trove.tag_tree_locked', $1, true)`, [groupId]);
  }

  /**
   * Keeps the group's tag tree as it is until the unit of work ends: takes the "tag tree" lock
   * shared. Taken before links to tags are removed, directly or with their entities: the
   * database's upkeep of the kept tag matches takes it then anyway, and taking it first means a
   * tag deleted meanwhile never waits on a link this unit of work holds while this one waits on
   * the deletion.
   */
  async holdTree(groupId: string): Promise<void> {
    await advisoryLock(this.db, tagTreeLock(groupId), 'shared');
  }

  insert(values: TagValues): Promise<TagRecord> {
    const repository = this.db.repository(TagRecord);
    return repository.save(repository.create(values));
  }

  /** Adds tags of these names to a new group. */
  async insertNamed(groupId: string, names: string[]): Promise<void> {
    await this.db.repository(TagRecord).insert(names.map((name) => ({ groupId, name })));
  }

  /** The group's tags with these names (at any level), oldest first. */
  findByNames(groupId: string, names: string[]): Promise<TagRecord[]> {
    return this.db
      .repository(TagRecord)
      .find({ where: { groupId, name: In(names) }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Adds top-level tags of these names to the group; their ids, in the same order. */
  async insertNamedReturning(groupId: string, names: string[]): Promise<string[]> {
    const result = await this.db
      .repository(TagRecord)
      .insert(names.map((name) => ({ groupId, name })));
    return result.identifiers.map((identifier) => identifier.id as string);
  }

  save(record: TagRecord): Promise<TagRecord> {
    return this.db.repository(TagRecord).save(record);
  }

  /** Deletes a tag; its children become roots, and it leaves every entity (ON DELETE CASCADE). */
  async delete(groupId: string, id: string): Promise<void> {
    const tags = this.db.repository(TagRecord);
    await tags.update({ parentId: id, groupId }, { parentId: null });
    await tags.delete({ id, groupId });
  }

  /** Deletes every tag of the group; how many. */
  async deleteAllOfGroup(groupId: string): Promise<number> {
    const [row] = await this.db.query<{ count: number }>(DELETE_ALL_OF_GROUP, [groupId]);
    return row.count;
  }

  private ordered() {
    return this.db.repository(TagRecord).createQueryBuilder('t').orderBy(nameOrder('t'));
  }
}
