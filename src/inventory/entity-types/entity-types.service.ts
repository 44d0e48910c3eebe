import { ConflictException, Injectable, type OnModuleInit } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import { QueryFailedError } from 'typeorm';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { ValidationFailedException } from '../../platform/errors/validation-failed.exception.js';
import { notOwned } from '../../platform/database/owned.js';
import type { CreateEntityTypeDto } from './dto/create-entity-type.dto.js';
import type { EntityTypeSummaryDto } from './dto/entity-type-summary.dto.js';
import type { UpdateEntityTypeDto } from './dto/update-entity-type.dto.js';
import type { EntityTypeRecord } from './entity-type.record.js';
import { EntityTypeRepository, type EntityTypeValues } from './entity-type.repository.js';
import { toEntityTypeSummary } from './entity-type.mapper.js';
import { ChangeEvents } from '../../platform/change-events/change-events.service.js';
import { GroupLifecycle } from '../../identity/groups/group-lifecycle.js';

/** The foreign key that keeps a type from being deleted while entities use it. */
const ENTITY_TYPE_IN_USE_CONSTRAINT = 'entities_entity_type_id_fkey';

/**
 * Entity types of a group. Every group has at least one type of each kind: "Item" and
 * "Location" are seeded with the group and re-created on demand by `defaultType`.
 */
@Injectable()
export class EntityTypesService implements OnModuleInit {
  constructor(
    private readonly types: EntityTypeRepository,
    private readonly changes: ChangeEvents,
    private readonly groups: GroupLifecycle,
  ) {}

  /** A new group starts with the types "Item" and "Location". */
  onModuleInit(): void {
    this.groups.register('entity-types', { seed: (groupId) => this.seed(groupId) });
  }

  /** The group's types, by name (then id). */
  async list(user: AuthUser): Promise<EntityTypeSummaryDto[]> {
    return (await this.types.findAll(user.groupId)).map(toEntityTypeSummary);
  }

  @Transactional()
  async create(user: AuthUser, dto: CreateEntityTypeDto): Promise<EntityTypeSummaryDto> {
    const defaultTemplateId = await this.checkTemplate(user.groupId, dto.defaultTemplateId);
    const saved = await this.types.insert({
      groupId: user.groupId,
      name: dto.name,
      isLocation: dto.isLocation ?? false,
      icon: dto.icon ?? '',
      description: dto.description ?? '',
      defaultTemplateId,
    });
    await this.changes.publish(user.groupId, 'entity.mutation');
    return toEntityTypeSummary(await this.findWithTemplate(user.groupId, saved.id));
  }

  /**
   * Replaces the type as Homebox does: omitted `isLocation`, `icon` and `defaultTemplateId` take
   * their defaults; `description` is kept unless given. Only a type of the caller's group.
   */
  @Transactional()
  async update(
    user: AuthUser,
    id: string,
    dto: UpdateEntityTypeDto,
  ): Promise<EntityTypeSummaryDto> {
    await this.findWithTemplate(user.groupId, id);
    const defaultTemplateId = await this.checkTemplate(user.groupId, dto.defaultTemplateId);
    const updated = await this.types.update(user.groupId, id, {
      name: dto.name,
      isLocation: dto.isLocation ?? false,
      icon: dto.icon ?? '',
      defaultTemplateId,
      ...(dto.description !== undefined ? { description: dto.description } : {}),
    });
    if (!updated) throw notOwned('entity type', id);
    await this.changes.publish(user.groupId, 'entity.mutation');
    return toEntityTypeSummary(await this.findWithTemplate(user.groupId, id));
  }

  /** Deletes a type of the caller's group; refused (409) while entities use it. */
  async remove(user: AuthUser, id: string): Promise<void> {
    let type: EntityTypeRecord | undefined;
    try {
      await this.removeUnused(user.groupId, id, (locked) => (type = locked));
    } catch (error) {
      if (type && isInUseViolation(error))
        throw inUse(type, await this.types.countEntitiesOfType(id));
      throw error;
    }
    await this.changes.publish(user.groupId, 'entity.mutation');
  }

  /**
   * A type of the caller's group with its default template. Missing or another group's: 404
   * `entity type <id> not found`, or with `field` a 422 naming that body field.
   */
  async findOwnedOrFail(user: AuthUser, id: string, field?: string): Promise<EntityTypeRecord> {
    return this.types.findOwned(user.groupId, id, { field, relations: ['defaultTemplate'] });
  }

  /**
   * The group's default type of a kind: its oldest type with that `isLocation`, created as
   * "Item" or "Location" when it has none. Runs in the caller's unit of work (or its own); an
   * advisory lock keeps concurrent callers from creating two.
   */
  @Transactional()
  async defaultType(groupId: string, isLocation: boolean): Promise<EntityTypeRecord> {
    const existing = await this.types.findOldest(groupId, isLocation);
    if (existing) return existing;
    await this.types.lockDefault(groupId, isLocation);
    const created = await this.types.findOldest(groupId, isLocation);
    if (created) return created;
    const type = await this.types.insert(defaultTypeValues(groupId, isLocation));
    type.defaultTemplate = null;
    return type;
  }

  /** The types a new group starts with, "Item" and "Location", in the caller's unit of work. */
  private async seed(groupId: string): Promise<void> {
    await this.types.insertMany(
      [false, true].map((isLocation) => defaultTypeValues(groupId, isLocation)),
    );
  }

  /**
   * Deletes the type unless entities use it, passing the locked row to `seen` first. Locking
   * the row makes concurrent inserts of entities of this type wait for us.
   */
  @Transactional()
  private async removeUnused(
    groupId: string,
    id: string,
    seen: (type: EntityTypeRecord) => void,
  ): Promise<void> {
    const locked = await this.types.findOwned(groupId, id, { lock: true });
    seen(locked);
    const used = await this.types.countEntitiesOfType(id);
    if (used > 0) throw inUse(locked, used);
    await this.types.delete(groupId, id);
  }

  /** A type of the group with its default template, or 404 (also for a non-UUID id). */
  private findWithTemplate(groupId: string, id: string): Promise<EntityTypeRecord> {
    return this.types.findOwned(groupId, id, { relations: ['defaultTemplate'] });
  }

  /** The template id to store: null for none, else a template of the group (422 otherwise). */
  private async checkTemplate(
    groupId: string,
    templateId: string | null | undefined,
  ): Promise<string | null> {
    if (templateId === undefined || templateId === null) return null;
    // FOR SHARE: the template cannot be deleted before this unit of work stores its id.
    if (!(await this.types.lockTemplateOfGroup(groupId, templateId))) {
      throw ValidationFailedException.forField(
        'defaultTemplateId',
        `template ${templateId} not found`,
      );
    }
    return templateId;
  }

  /**
   * Removes the group's types (a collection restore wipes its seed ones), in the caller's unit of
   * work; no entity may use them.
   */
  deleteAllOfGroup(groupId: string): Promise<void> {
    return this.types.deleteAllOfGroup(groupId);
  }
}

/** The default type of a kind: "Item", or "Location" for locations. */
function defaultTypeValues(groupId: string, isLocation: boolean): EntityTypeValues {
  return {
    groupId,
    name: isLocation ? 'Location' : 'Item',
    isLocation,
    icon: '',
    description: '',
    defaultTemplateId: null,
  };
}

function inUse(type: EntityTypeRecord, count: number): ConflictException {
  const entities = count === 1 ? 'entity' : 'entities';
  return new ConflictException(
    `entity type ${type.name} is used by ${count} ${entities}; move them to another type first`,
  );
}

function isInUseViolation(error: unknown): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driverError = error.driverError as { code?: string; constraint?: string };
  return driverError.code === '23503' && driverError.constraint === ENTITY_TYPE_IN_USE_CONSTRAINT;
}
