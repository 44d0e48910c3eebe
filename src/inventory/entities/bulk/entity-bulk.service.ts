import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import type { AuthUser } from '../../../identity/auth/auth-user.js';
import { ValidationFailedException } from '../../../platform/errors/validation-failed.exception.js';
import { EntityTypesService } from '../../entity-types/entity-types.service.js';
import { ChangeEvents } from '../../../platform/change-events/change-events.service.js';
import { TagsService } from '../../tags/tags.service.js';
import type {
  BulkEntityChangeDto,
  BulkEntityChangeResultDto,
  BulkEntityFieldsDto,
} from './dto/bulk-entity-change.dto.js';
import { EntitiesService, PARENT_CYCLE_MESSAGE } from '../core/entities.service.js';
import { StoredFilesService } from '../../stored-files/stored-files.service.js';
import { EntityBulkRepository } from './entity-bulk.repository.js';

/** The 422 for ids that are not entities of the caller's group, listing them. */
export const notOwnedMessage = (ids: string[]): string =>
  `${ids.length === 1 ? 'this id is not an entity' : `these ${ids.length} ids are not entities`} ` +
  `of the group (nothing was changed): ${ids.join(', ')}`;

/** The 422 for a move that would put entities inside themselves, naming them. */
export const cycleMessage = (ids: string[]): string =>
  `${PARENT_CYCLE_MESSAGE}: ${ids.join(', ')} ${ids.length === 1 ? 'is' : 'are'} the parent ` +
  `or contain${ids.length === 1 ? 's' : ''} it`;

/** UUIDs as PostgreSQL writes them, so the same id sent in two spellings counts once. */
const canonical = (ids: string[]): string[] => [...new Set(ids.map((id) => id.toLowerCase()))];

/**
 * One change to many entities of the caller's group: every named entity must be the group's,
 * and the change is all or nothing, made by one statement per action in one unit of work,
 * announced by one change event.
 */
@Injectable()
export class EntityBulkService {
  constructor(
    private readonly entities: EntitiesService,
    private readonly bulk: EntityBulkRepository,
    private readonly tags: TagsService,
    private readonly entityTypes: EntityTypesService,
    private readonly storedFiles: StoredFilesService,
    private readonly changes: ChangeEvents,
  ) {}

  /**
   * Applies the change; how many entities it changed. After a delete is committed, the stored
   * files of the deleted attachments that no other attachment uses are deleted.
   */
  async apply(user: AuthUser, dto: BulkEntityChangeDto): Promise<BulkEntityChangeResultDto> {
    const { updated, released } = await this.change(user, dto);
    await this.storedFiles.releaseUnused(released);
    return { updated };
  }

  @Transactional()
  private async change(
    user: AuthUser,
    dto: BulkEntityChangeDto,
  ): Promise<{ updated: number; released: string[] }> {
    const ids = canonical(dto.ids);
    const found = new Set(await this.bulk.lockOwned(user.groupId, ids));
    const foreign = ids.filter((id) => !found.has(id));
    if (foreign.length > 0) {
      throw ValidationFailedException.forField('ids', notOwnedMessage(foreign));
    }
    let released: string[] = [];
    let updated: number;
    switch (dto.action) {
      case 'move':
        updated = await this.move(user, ids, dto.parentId ?? null);
        break;
      case 'addTags':
        updated = await this.bulk.addTagsToMany(
          user.groupId,
          ids,
          await this.ownedTags(user, dto.tagIds ?? []),
        );
        break;
      case 'removeTags': {
        const tagIds = await this.ownedTags(user, dto.tagIds ?? []);
        await this.tags.holdTree(user.groupId);
        updated = await this.bulk.removeTagsFromMany(user.groupId, ids, tagIds);
        break;
      }
      case 'archive':
      case 'unarchive':
        updated = await this.bulk.setArchivedOfMany(user.groupId, ids, dto.action === 'archive');
        break;
      case 'setFields':
        updated = await this.setFields(user, ids, dto.fields!);
        break;
      case 'delete':
        released = await this.storedFiles.keysOfEntities(ids);
        await this.tags.holdTree(user.groupId);
        updated = await this.bulk.deleteMany(user.groupId, ids);
        break;
    }
    if (updated > 0) await this.changes.publish(user.groupId, 'entity.mutation');
    return { updated, released };
  }

  /**
   * Puts the entities under `parentId`, an entity of the group that is none of them and not
   * inside one of them. Moves of the group take turns (as single moves do), so two concurrent
   * moves cannot close a loop between them.
   */
  private async move(user: AuthUser, ids: string[], parentId: string | null): Promise<number> {
    if (parentId !== null) {
      const parent = await this.entities.findOwned(user, parentId, { field: 'parentId' });
      await this.entities.lockMoves(user.groupId);
      const inside = await this.bulk.amongParentAndAncestors(user.groupId, parent.id, ids);
      if (inside.length > 0) {
        throw ValidationFailedException.forField('parentId', cycleMessage(inside));
      }
    }
    return this.bulk.moveMany(user.groupId, ids, parentId?.toLowerCase() ?? null);
  }

  /** The tag ids, each once; a 422 on `tagIds` naming one that is not a tag of the group. */
  private async ownedTags(user: AuthUser, tagIds: string[]): Promise<string[]> {
    return (await this.tags.findOwnedMany(user, canonical(tagIds))).map((tag) => tag.id);
  }

  private async setFields(
    user: AuthUser,
    ids: string[],
    fields: BulkEntityFieldsDto,
  ): Promise<number> {
    const values: Record<string, unknown> = { ...fields };
    if (fields.entityTypeId !== undefined) {
      values.entityTypeId = (
        await this.entityTypes.findOwnedOrFail(user, fields.entityTypeId, 'fields.entityTypeId')
      ).id;
    }
    return this.bulk.setFieldsOfMany(user.groupId, ids, values);
  }
}
