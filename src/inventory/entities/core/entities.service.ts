import { ConflictException, Injectable, type OnModuleInit } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import type { AuthUser } from '../../../identity/auth/auth-user.js';
import { GroupLifecycle } from '../../../identity/groups/group-lifecycle.js';
import { ChangeEvents } from '../../../platform/change-events/change-events.service.js';
import type { FindOwnedOptions } from '../../../platform/database/owned.js';
import { EntityTypesService } from '../../entity-types/entity-types.service.js';
import { TagsService } from '../../tags/tags.service.js';
import { EntityFieldRepository, type EntityFieldValues } from './entity-field.repository.js';
import type { EntityRecord } from './entity.record.js';
import {
  EntityRepository,
  type EndingWarranty,
  type InsertableEntity,
  type InsertedEntity,
} from './entity.repository.js';

export type { EndingWarranty, InsertableEntity, InsertedEntity } from './entity.repository.js';

/** Why a move is refused that would put an entity inside itself or one of its descendants. */
export const PARENT_CYCLE_MESSAGE =
  'an entity cannot be placed inside itself or one of its descendants';

/** Starter locations of a new Homebox collection. */
const STARTER_LOCATIONS = [
  'Living Room',
  'Garage',
  'Kitchen',
  'Bedroom',
  'Bathroom',
  'Office',
  'Attic',
  'Basement',
];

/**
 * What other modules (and the other parts of this one) do with entities: find one of a group,
 * insert one, change its name, tags and fields, copy it, and the group-wide changes of the
 * inventory actions. The API's own writes are `EntityEditsService`'s, its reads the views'.
 * Each call runs in the caller's unit of work, or by itself outside one.
 */
@Injectable()
export class EntitiesService implements OnModuleInit {
  constructor(
    private readonly entities: EntityRepository,
    private readonly fields: EntityFieldRepository,
    private readonly tags: TagsService,
    private readonly entityTypes: EntityTypesService,
    private readonly changes: ChangeEvents,
    private readonly groups: GroupLifecycle,
  ) {}

  /** A new collection (a group made with its starter rows) starts with the starter locations. */
  onModuleInit(): void {
    this.groups.register('entities', {
      seed: async (groupId, { starter }) => {
        if (!starter) return;
        const locationType = await this.entityTypes.defaultType(groupId, true);
        await this.entities.insertStarterLocations(groupId, locationType.id, STARTER_LOCATIONS);
      },
    });
  }

  /**
   * An entity of the caller's group: otherwise 404 `entity <id> not found`, or with `field` a
   * 422 naming the body field that referred to it.
   */
  async findOwned(user: AuthUser, id: string, options?: FindOwnedOptions): Promise<EntityRecord> {
    return this.entities.findOwned(user.groupId, id, options);
  }

  /** The entity of the group itself or its nearest ancestor that is a location, if any. */
  async nearestLocation(groupId: string, id: string): Promise<EntityRecord | null> {
    return this.entities.nearestLocation(groupId, id);
  }

  /**
   * Unarchived entities of every group whose warranty (not a lifetime one) ends between `from`
   * and `to` (`YYYY-MM-DD`, inclusive), by group: for reminders, which run for all groups.
   */
  warrantiesEnding(from: string, to: string): Promise<EndingWarranty[]> {
    return this.entities.findWarrantiesEnding(from, to);
  }

  /**
   * Inserts an entity with the next asset id of the group and its tags, for callers that
   * checked its type (null: the group's oldest item type), parent and tags in their unit of
   * work; a 409 should one of them have gone meanwhile.
   */
  async insert(
    groupId: string,
    values: InsertableEntity,
    tagIds: string[] = [],
  ): Promise<InsertedEntity> {
    const inserted = await this.entities.tryInsert(groupId, values, tagIds);
    if (!inserted) {
      throw new ConflictException(
        'the entity’s type, parent or tags changed while it was being stored; try again',
      );
    }
    await this.changes.publish(groupId, 'entity.mutation');
    return inserted;
  }

  /** Renames an entity of the group (a name filled in once its asset id is known). */
  async rename(groupId: string, id: string, name: string): Promise<void> {
    await this.entities.rename(groupId, id, name);
    await this.changes.publish(groupId, 'entity.mutation');
  }

  /**
   * Sets the quantity of an entity of the group, in the caller's unit of work (which found and
   * locked it): a stock adjustment.
   */
  async setQuantity(groupId: string, id: string, quantity: number): Promise<void> {
    await this.entities.setQuantity(groupId, id, quantity);
    await this.changes.publish(groupId, 'entity.mutation');
  }

  /** Adds custom fields to an entity, each at the position it has. */
  async insertFields(entityId: string, fields: EntityFieldValues[]): Promise<void> {
    await this.fields.insertFields(entityId, fields);
  }

  /** Replaces the tags of an entity of the group, in the caller's unit of work. */
  async setTags(groupId: string, entityId: string, tagIds: string[]): Promise<void> {
    await this.tags.holdTree(groupId);
    await this.entities.setTags(entityId, tagIds);
  }

  /**
   * Inserts a copy of an entity of the group with its tags (and, with `copyFields`, its custom
   * fields), named `name`; its id. What other modules keep for the entity is theirs to copy.
   */
  @Transactional()
  async insertCopy(
    user: AuthUser,
    id: string,
    name: (sourceName: string) => string,
    copyFields: boolean,
  ): Promise<string> {
    const source = await this.entities.findOwned(user.groupId, id, { relations: ['tags'] });
    const {
      id: _id,
      createdAt: _c,
      updatedAt: _u,
      assetId: _a,
      tags,
      importRef: _i,
      ...values
    } = source;
    const copy = await this.insert(
      user.groupId,
      { ...values, name: name(source.name) },
      (tags ?? []).map((tag) => tag.id),
    );
    if (copyFields) await this.fields.copyFields(id, copy.id);
    return copy.id;
  }

  /**
   * Makes moves of entities within a group take turns until the unit of work ends, so two
   * concurrent moves cannot close a loop.
   */
  async lockMoves(groupId: string): Promise<void> {
    await this.entities.lockMoves(groupId);
  }

  /**
   * Removes the group's entities with their rows, in the caller's unit of work; how many
   * entities. The stored files of their attachments are the caller's to release.
   */
  async deleteAllOfGroup(groupId: string): Promise<number> {
    await this.tags.holdTree(groupId);
    return this.entities.deleteAllOfGroup(groupId);
  }

  /** Numbers the group's entities without an asset id after its highest, oldest first. */
  numberMissingAssetIds(groupId: string): Promise<number> {
    return this.entities.numberMissingAssetIds(groupId);
  }

  /** Gives the group's entities without an import ref a random one of eight characters. */
  fillMissingImportRefs(groupId: string): Promise<number> {
    return this.entities.fillMissingImportRefs(groupId);
  }

  /** Clears the group's purchase, sold and warranty dates before year 100; entities changed. */
  clearSentinelDates(groupId: string): Promise<number> {
    return this.entities.clearSentinelDates(groupId);
  }
}
