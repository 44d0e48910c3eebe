import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { In, type DataSource, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import type { AuthUser } from '../auth/auth-user.js';
import { ValidationFailedException } from '../common/errors/validation-failed.exception.js';
import type { CreateTagDto } from './dto/create-tag.dto.js';
import type { TagOutDto } from './dto/tag-out.dto.js';
import type { TagSummaryDto } from './dto/tag-summary.dto.js';
import type { UpdateTagDto } from './dto/update-tag.dto.js';
import { toTagOut, toTagSummary } from './tag.mapper.js';
import { TagRecord } from './tag.record.js';

/** How many levels a tag tree may have, roots counting as the first. */
export const MAX_TAG_DEPTH = 5;
export const TAG_CYCLE_MESSAGE = 'a tag cannot be nested under itself or its descendants';
export const TAG_DEPTH_MESSAGE = `tags can be nested at most ${MAX_TAG_DEPTH} levels deep`;

/** Homebox clients send the zero UUID for "no parent". */
const NIL_UUID = '00000000-0000-0000-0000-000000000000';
/** Bounds the recursive queries should the stored tree ever hold a cycle. */
const RECURSION_LIMIT = 64;

interface Placement {
  parentDepth: number;
  cycle: boolean;
  height: number;
}

/**
 * Nested tags of a group. Writes that change the tree lock the group's tags first, so the
 * cycle and depth checks (recursive CTEs) see a tree no one else is changing.
 */
@Injectable()
export class TagsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Every tag of the group, by name. */
  async list(user: AuthUser): Promise<TagSummaryDto[]> {
    const records = await this.ordered(
      this.dataSource.manager.getRepository(TagRecord).createQueryBuilder('t'),
    )
      .where('t.group_id = :groupId', { groupId: user.groupId })
      .getMany();
    return records.map(toTagSummary);
  }

  async get(user: AuthUser, id: string): Promise<TagOutDto> {
    const record = await this.findOwnedOrFail(user, id);
    return this.toOut(this.dataSource.manager, record);
  }

  async create(user: AuthUser, dto: CreateTagDto): Promise<TagOutDto> {
    return this.dataSource.transaction(async (manager) => {
      const parentId = parentIdOf(dto);
      if (parentId) {
        await this.lockGroupTags(manager, user.groupId);
        await this.checkPlacement(manager, user.groupId, null, parentId);
      }
      const record = await manager.save(
        TagRecord,
        manager.create(TagRecord, { groupId: user.groupId, parentId, ...textsOf(dto) }),
      );
      return this.toOut(manager, record);
    });
  }

  /** Full replacement: an omitted parentId makes the tag a root, omitted texts become "". */
  async update(user: AuthUser, id: string, dto: UpdateTagDto): Promise<TagOutDto> {
    return this.dataSource.transaction(async (manager) => {
      await this.lockGroupTags(manager, user.groupId);
      const record = await this.findOwnedIn(manager, user.groupId, id);
      const parentId = parentIdOf(dto);
      if (parentId) await this.checkPlacement(manager, user.groupId, id, parentId);
      Object.assign(record, { parentId, ...textsOf(dto) });
      await manager.save(record);
      return this.toOut(manager, record);
    });
  }

  /** Deletes a tag: its children become roots and it leaves every entity. */
  async remove(user: AuthUser, id: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await this.lockGroupTags(manager, user.groupId);
      await this.findOwnedIn(manager, user.groupId, id);
      await manager
        .createQueryBuilder()
        .update(TagRecord)
        .set({ parentId: null })
        .where('parent_id = :id AND group_id = :groupId', { id, groupId: user.groupId })
        .execute();
      // entity_tags rows go with the tag (ON DELETE CASCADE).
      await manager.delete(TagRecord, { id, groupId: user.groupId });
    });
  }

  /** A tag of the caller's group, or 404 `tag <id> not found`. */
  async findOwnedOrFail(user: AuthUser, id: string): Promise<TagRecord> {
    return this.findOwnedIn(this.dataSource.manager, user.groupId, id);
  }

  /**
   * The group's tags with these ids, in the order given and without duplicates; any id that is
   * not a tag of the group is a 422 naming `field`.
   */
  async findOwnedMany(user: AuthUser, ids: string[], field = 'tagIds'): Promise<TagRecord[]> {
    const unique = [...new Set(ids)];
    const invalid = unique.find((id) => !isUUID(id, 'all'));
    if (invalid !== undefined) {
      throw ValidationFailedException.forField(field, `tag ${invalid} not found`);
    }
    if (unique.length === 0) return [];
    const records = await this.dataSource
      .getRepository(TagRecord)
      .findBy({ id: In(unique), groupId: user.groupId });
    const byId = new Map(records.map((record) => [record.id, record]));
    return unique.map((id) => {
      const record = byId.get(id);
      if (!record) throw ValidationFailedException.forField(field, `tag ${id} not found`);
      return record;
    });
  }

  /**
   * The ids of the given tags of the group and of all their descendants, each once; ids that
   * are not tags of the group are dropped.
   */
  async expandWithDescendants(user: AuthUser, ids: string[]): Promise<string[]> {
    const roots = [...new Set(ids)].filter((id) => isUUID(id, 'all'));
    if (roots.length === 0) return [];
    const rows = await this.dataSource.query<{ id: string }[]>(
      `WITH RECURSIVE tree(id) AS (
         SELECT t.id FROM tags t WHERE t.group_id = $1 AND t.id = ANY($2::uuid[])
         UNION
         SELECT t.id FROM tags t JOIN tree ON t.parent_id = tree.id WHERE t.group_id = $1
       )
       SELECT id FROM tree ORDER BY id`,
      [user.groupId, roots],
    );
    return rows.map((row) => row.id);
  }

  private async findOwnedIn(
    manager: EntityManager,
    groupId: string,
    id: string,
  ): Promise<TagRecord> {
    const record = isUUID(id, 'all') ? await manager.findOneBy(TagRecord, { id, groupId }) : null;
    if (!record) throw new NotFoundException(`tag ${id} not found`);
    return record;
  }

  private async toOut(manager: EntityManager, record: TagRecord): Promise<TagOutDto> {
    const parent = record.parentId
      ? await manager.findOneBy(TagRecord, { id: record.parentId, groupId: record.groupId })
      : null;
    const children = await this.ordered(manager.getRepository(TagRecord).createQueryBuilder('t'))
      .where('t.group_id = :groupId AND t.parent_id = :id', {
        groupId: record.groupId,
        id: record.id,
      })
      .getMany();
    return toTagOut(record, parent, children);
  }

  /** Name order, the same on every server: case-insensitive, then by code point, then id. */
  private ordered(query: SelectQueryBuilder<TagRecord>): SelectQueryBuilder<TagRecord> {
    return query
      .orderBy('lower(t.name) COLLATE "C"', 'ASC')
      .addOrderBy('t.name COLLATE "C"', 'ASC')
      .addOrderBy('t.id', 'ASC');
  }

  /**
   * Locks every tag of the group until the transaction ends, in id order so that two writers
   * cannot deadlock. `FOR NO KEY UPDATE` leaves entities free to reference the tags meanwhile.
   */
  private async lockGroupTags(manager: EntityManager, groupId: string): Promise<void> {
    await manager.query('SELECT id FROM tags WHERE group_id = $1 ORDER BY id FOR NO KEY UPDATE', [
      groupId,
    ]);
  }

  /**
   * Refuses to put the tag `tagId` (null for a new tag) under `parentId` when the parent is not
   * a tag of the group, when it is the tag itself or one of its descendants, or when the tag's
   * subtree would then reach deeper than MAX_TAG_DEPTH levels.
   */
  private async checkPlacement(
    manager: EntityManager,
    groupId: string,
    tagId: string | null,
    parentId: string,
  ): Promise<void> {
    const [placement] = await manager.query<Placement[]>(
      `WITH RECURSIVE chain(id, parent_id, depth) AS (
         SELECT id, parent_id, 1 FROM tags WHERE id = $2 AND group_id = $1
         UNION ALL
         SELECT t.id, t.parent_id, c.depth + 1 FROM tags t JOIN chain c ON t.id = c.parent_id
         WHERE c.depth < $4
       ), subtree(id, level) AS (
         SELECT id, 1 FROM tags WHERE id = $3 AND group_id = $1
         UNION ALL
         SELECT t.id, s.level + 1 FROM tags t JOIN subtree s ON t.parent_id = s.id
         WHERE s.level < $4
       )
       SELECT (SELECT count(*) FROM chain)::int AS "parentDepth",
              EXISTS (SELECT 1 FROM chain WHERE id = $3) AS cycle,
              COALESCE((SELECT max(level) FROM subtree), 1)::int AS height`,
      [groupId, parentId, tagId, RECURSION_LIMIT],
    );
    if (placement.parentDepth === 0) {
      throw ValidationFailedException.forField('parentId', `tag ${parentId} not found`);
    }
    if (placement.cycle) throw ValidationFailedException.forField('parentId', TAG_CYCLE_MESSAGE);
    if (placement.parentDepth + placement.height > MAX_TAG_DEPTH) {
      throw ValidationFailedException.forField('parentId', TAG_DEPTH_MESSAGE);
    }
  }
}

/** The parent a body asks for: null for none (omitted, null or Homebox's zero UUID). */
function parentIdOf(dto: CreateTagDto): string | null {
  return dto.parentId && dto.parentId !== NIL_UUID ? dto.parentId : null;
}

/** The text fields of a body, "" for those omitted. */
function textsOf(dto: CreateTagDto): Pick<TagRecord, 'name' | 'description' | 'color' | 'icon'> {
  return {
    name: dto.name,
    description: dto.description ?? '',
    color: dto.color ?? '',
    icon: dto.icon ?? '',
  };
}
