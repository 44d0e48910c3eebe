import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import { isUUID } from 'class-validator';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { ValidationFailedException } from '../../platform/errors/validation-failed.exception.js';
import type { CreateTagDto } from './dto/create-tag.dto.js';
import type { TagOutDto } from './dto/tag-out.dto.js';
import type { TagSummaryDto } from './dto/tag-summary.dto.js';
import type { UpdateTagDto } from './dto/update-tag.dto.js';
import { toTagOut, toTagSummary } from './tag.mapper.js';
import type { TagRecord } from './tag.record.js';
import { TagRepository } from './tag.repository.js';
import { ChangeEvents } from '../../platform/change-events/change-events.service.js';
import { GroupLifecycle } from '../../identity/groups/group-lifecycle.js';

/** How many levels a tag tree may have, roots counting as the first. */
export const MAX_TAG_DEPTH = 5;
export const TAG_CYCLE_MESSAGE = 'a tag cannot be nested under itself or its descendants';
export const TAG_DEPTH_MESSAGE = `tags can be nested at most ${MAX_TAG_DEPTH} levels deep`;

/** Homebox clients send the zero UUID for "no parent". */
const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** Starter tags of a new Homebox collection. */
const STARTER_TAGS = ['Appliances', 'IOT', 'Electronics', 'Servers', 'General', 'Important'];

/**
 * Nested tags of a group. Writes that change the tree lock the group's tags first, so the
 * cycle and depth checks see a tree no one else is changing.
 */
@Injectable()
export class TagsService implements OnModuleInit {
  constructor(
    private readonly tags: TagRepository,
    private readonly changes: ChangeEvents,
    private readonly groups: GroupLifecycle,
  ) {}

  /** A new collection (a group made with its starter rows) starts with the starter tags. */
  onModuleInit(): void {
    this.groups.register('tags', {
      seed: async (groupId, { starter }) => {
        if (starter) await this.tags.insertNamed(groupId, STARTER_TAGS);
      },
    });
  }

  /**
   * Keeps the group's tag tree as it is until the unit of work ends; to be called, in a unit of
   * work, before removing links to the group's tags (with their entities or not).
   */
  async holdTree(groupId: string): Promise<void> {
    await this.tags.holdTree(groupId);
  }

  /** Every tag of the group, by name. */
  async list(user: AuthUser): Promise<TagSummaryDto[]> {
    return (await this.tags.findAll(user.groupId)).map(toTagSummary);
  }

  async get(user: AuthUser, id: string): Promise<TagOutDto> {
    return this.toOut(await this.tags.findOwned(user.groupId, id));
  }

  @Transactional()
  async create(user: AuthUser, dto: CreateTagDto): Promise<TagOutDto> {
    const parentId = parentIdOf(dto);
    if (parentId) {
      await this.tags.lockGroup(user.groupId);
      await this.checkPlacement(user.groupId, null, parentId);
    }
    const record = await this.tags.insert({ groupId: user.groupId, parentId, ...textsOf(dto) });
    await this.changes.publish(user.groupId, 'tag.mutation');
    return this.toOut(record);
  }

  /** Full replacement: an omitted parentId makes the tag a root, omitted texts become "". */
  @Transactional()
  async update(user: AuthUser, id: string, dto: UpdateTagDto): Promise<TagOutDto> {
    await this.tags.lockGroup(user.groupId);
    const record = await this.tags.findOwned(user.groupId, id);
    const parentId = parentIdOf(dto);
    if (parentId) await this.checkPlacement(user.groupId, id, parentId);
    Object.assign(record, { parentId, ...textsOf(dto) });
    const saved = await this.tags.save(record);
    await this.changes.publish(user.groupId, 'tag.mutation');
    return this.toOut(saved);
  }

  /** Deletes a tag: its children become roots and it leaves every entity. */
  @Transactional()
  async remove(user: AuthUser, id: string): Promise<void> {
    await this.tags.lockGroup(user.groupId);
    await this.tags.findOwned(user.groupId, id);
    await this.tags.delete(user.groupId, id);
    await this.changes.publish(user.groupId, 'tag.mutation');
  }

  /**
   * Deletes every tag of the group, in the caller's unit of work (announced when it commits);
   * how many.
   */
  async removeAllOfGroup(groupId: string): Promise<number> {
    await this.tags.lockGroup(groupId);
    const deleted = await this.tags.deleteAllOfGroup(groupId);
    if (deleted > 0) await this.changes.publish(groupId, 'tag.mutation');
    return deleted;
  }

  /** A tag of the caller's group, or 404 `tag <id> not found`. */
  async findOwnedOrFail(user: AuthUser, id: string): Promise<TagRecord> {
    return this.tags.findOwned(user.groupId, id);
  }

  /**
   * The group's tags with these ids, in the order given and without duplicates; any id that is
   * not a tag of the group is a 422 naming `field`.
   */
  async findOwnedMany(user: AuthUser, ids: string[], field = 'tagIds'): Promise<TagRecord[]> {
    return this.tags.findOwnedMany(user.groupId, ids, { field });
  }

  /**
   * The group's tags among `ids`, in that order and without duplicates; ids that are not (or no
   * longer) tags of the group are dropped.
   */
  async findExisting(groupId: string, ids: string[]): Promise<TagRecord[]> {
    const unique = [...new Set(ids)].filter((id) => isUUID(id, 'all'));
    if (unique.length === 0) return [];
    const byId = new Map(
      (await this.tags.findExisting(groupId, unique)).map((record) => [record.id, record]),
    );
    return unique
      .map((id) => byId.get(id))
      .filter((record): record is TagRecord => record !== undefined);
  }

  /**
   * The ids of the group's tags by name: a name matches a tag of that exact name at any level
   * (the oldest, should several share it); names no tag has become new top-level tags. Runs in
   * the caller's unit of work.
   */
  async resolveNames(groupId: string, names: string[]): Promise<Map<string, string>> {
    const ids = new Map<string, string>();
    if (names.length === 0) return ids;
    for (const tag of await this.tags.findByNames(groupId, names)) {
      if (!ids.has(tag.name)) ids.set(tag.name, tag.id);
    }
    const missing = names.filter((name) => !ids.has(name));
    if (missing.length > 0) {
      const created = await this.tags.insertNamedReturning(groupId, missing);
      missing.forEach((name, index) => ids.set(name, created[index]));
      await this.changes.publish(groupId, 'tag.mutation');
    }
    return ids;
  }

  private async toOut(record: TagRecord): Promise<TagOutDto> {
    const [parent, children] = await Promise.all([
      this.tags.findParent(record),
      this.tags.findChildren(record.groupId, record.id),
    ]);
    return toTagOut(record, parent, children);
  }

  /**
   * Refuses to put the tag `tagId` (null for a new tag) under `parentId` when the parent is not
   * a tag of the group, when it is the tag itself or one of its descendants, or when the tag's
   * subtree would then reach deeper than MAX_TAG_DEPTH levels.
   */
  private async checkPlacement(
    groupId: string,
    tagId: string | null,
    parentId: string,
  ): Promise<void> {
    const placement = await this.tags.placement(groupId, tagId, parentId);
    if (placement.parentDepth === 0) {
      throw ValidationFailedException.forField('parentId', `tag ${parentId} not found`);
    }
    if (placement.cycle) throw ValidationFailedException.forField('parentId', TAG_CYCLE_MESSAGE);
    if (placement.parentDepth + placement.height > MAX_TAG_DEPTH) {
      throw ValidationFailedException.forField('parentId', TAG_DEPTH_MESSAGE);
    }
  }

  /** Removes the group's tags (a collection restore wipes its seed ones), in the caller's unit of work. */
  async deleteAllOfGroup(groupId: string): Promise<void> {
    await this.tags.deleteAllOfGroup(groupId);
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
