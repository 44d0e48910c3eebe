import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { QueryFailedError, type DataSource, type EntityManager } from 'typeorm';
import type { AuthUser } from '../auth/auth-user.js';
import { ValidationFailedException } from '../common/errors/validation-failed.exception.js';
import { Database } from '../database/database.js';
import { EntityRecord } from '../entities/entity.record.js';
import { TemplateRecord } from '../templates/template.record.js';
import type { CreateEntityTypeDto } from './dto/create-entity-type.dto.js';
import type { EntityTypeSummaryDto } from './dto/entity-type-summary.dto.js';
import type { UpdateEntityTypeDto } from './dto/update-entity-type.dto.js';
import { EntityTypeRecord } from './entity-type.record.js';
import { toEntityTypeSummary } from './entity-type.mapper.js';

/** The foreign key that keeps a type from being deleted while entities use it. */
const ENTITY_TYPE_IN_USE_CONSTRAINT = 'entities_entity_type_id_fkey';

const notFoundMessage = (id: string): string => `entity type ${id} not found`;

/**
 * Entity types of a group. Every group has at least one type of each kind: "Item" and
 * "Location" are seeded with the group and re-created on demand by `defaultType`.
 */
@Injectable()
export class EntityTypesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly db: Database,
  ) {}

  /** The group's types, by name (then id). */
  async list(user: AuthUser): Promise<EntityTypeSummaryDto[]> {
    const types = await this.dataSource.getRepository(EntityTypeRecord).find({
      where: { groupId: user.groupId },
      relations: { defaultTemplate: true },
      order: { name: 'ASC', id: 'ASC' },
    });
    return types.map(toEntityTypeSummary);
  }

  async create(user: AuthUser, dto: CreateEntityTypeDto): Promise<EntityTypeSummaryDto> {
    return this.dataSource.transaction(async (manager) => {
      const defaultTemplateId = await this.checkTemplate(
        manager,
        user.groupId,
        dto.defaultTemplateId,
      );
      const saved = await manager.save(
        EntityTypeRecord,
        manager.create(EntityTypeRecord, {
          groupId: user.groupId,
          name: dto.name,
          isLocation: dto.isLocation ?? false,
          icon: dto.icon ?? '',
          description: dto.description ?? '',
          defaultTemplateId,
        }),
      );
      return toEntityTypeSummary(await this.findInGroupOrFail(manager, user.groupId, saved.id));
    });
  }

  /**
   * Replaces the type as Homebox does: omitted `isLocation`, `icon` and `defaultTemplateId` take
   * their defaults; `description` is kept unless given. Only a type of the caller's group.
   */
  async update(
    user: AuthUser,
    id: string,
    dto: UpdateEntityTypeDto,
  ): Promise<EntityTypeSummaryDto> {
    return this.dataSource.transaction(async (manager) => {
      await this.findInGroupOrFail(manager, user.groupId, id);
      const defaultTemplateId = await this.checkTemplate(
        manager,
        user.groupId,
        dto.defaultTemplateId,
      );
      const result = await manager.update(
        EntityTypeRecord,
        { id, groupId: user.groupId },
        {
          name: dto.name,
          isLocation: dto.isLocation ?? false,
          icon: dto.icon ?? '',
          defaultTemplateId,
          ...(dto.description !== undefined ? { description: dto.description } : {}),
        },
      );
      if (!result.affected) throw new NotFoundException(notFoundMessage(id));
      return toEntityTypeSummary(await this.findInGroupOrFail(manager, user.groupId, id));
    });
  }

  /** Deletes a type of the caller's group; refused (409) while entities use it. */
  async remove(user: AuthUser, id: string): Promise<void> {
    let type: EntityTypeRecord | undefined;
    try {
      await this.dataSource.transaction(async (manager) => {
        // Locking the row makes concurrent inserts of entities of this type wait for us.
        const locked = await manager
          .getRepository(EntityTypeRecord)
          .createQueryBuilder('t')
          .setLock('pessimistic_write')
          .where('t.id = :id AND t.group_id = :groupId', { id, groupId: user.groupId })
          .getOne();
        if (!locked) throw new NotFoundException(notFoundMessage(id));
        type = locked;
        const used = await manager.countBy(EntityRecord, { entityTypeId: id });
        if (used > 0) throw inUse(locked, used);
        await manager.delete(EntityTypeRecord, { id, groupId: user.groupId });
      });
    } catch (error) {
      if (type && isInUseViolation(error)) {
        throw inUse(
          type,
          await this.dataSource.manager.countBy(EntityRecord, { entityTypeId: id }),
        );
      }
      throw error;
    }
  }

  /**
   * A type of the caller's group with its default template. Missing or another group's: 404
   * `entity type <id> not found`, or with `field` a 422 naming that body field.
   */
  async findOwnedOrFail(user: AuthUser, id: string, field?: string): Promise<EntityTypeRecord> {
    const type = isUUID(id)
      ? await this.dataSource.getRepository(EntityTypeRecord).findOne({
          where: { id, groupId: user.groupId },
          relations: { defaultTemplate: true },
        })
      : null;
    if (type) return type;
    throw field
      ? ValidationFailedException.forField(field, notFoundMessage(id))
      : new NotFoundException(notFoundMessage(id));
  }

  /**
   * The group's default type of a kind: its oldest type with that `isLocation`, created as
   * "Item" or "Location" when it has none. Runs in the caller's unit of work (or its own); an
   * advisory lock keeps concurrent callers from creating two.
   */
  async defaultType(groupId: string, isLocation: boolean): Promise<EntityTypeRecord> {
    return this.db.transaction(() => this.defaultTypeIn(this.db.manager, groupId, isLocation));
  }

  private async defaultTypeIn(
    manager: EntityManager,
    groupId: string,
    isLocation: boolean,
  ): Promise<EntityTypeRecord> {
    const existing = await this.findOldest(manager, groupId, isLocation);
    if (existing) return existing;
    await manager.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
      `trove:default-entity-type:${groupId}:${isLocation}`,
    ]);
    const created = await this.findOldest(manager, groupId, isLocation);
    if (created) return created;
    const type = await manager.save(
      EntityTypeRecord,
      manager.create(EntityTypeRecord, {
        groupId,
        name: isLocation ? 'Location' : 'Item',
        isLocation,
        icon: '',
        description: '',
        defaultTemplateId: null,
      }),
    );
    type.defaultTemplate = null;
    return type;
  }

  private findOldest(
    manager: EntityManager,
    groupId: string,
    isLocation: boolean,
  ): Promise<EntityTypeRecord | null> {
    return manager.findOne(EntityTypeRecord, {
      where: { groupId, isLocation },
      relations: { defaultTemplate: true },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  private async findInGroupOrFail(
    manager: EntityManager,
    groupId: string,
    id: string,
  ): Promise<EntityTypeRecord> {
    const type = await manager.findOne(EntityTypeRecord, {
      where: { id, groupId },
      relations: { defaultTemplate: true },
    });
    if (!type) throw new NotFoundException(notFoundMessage(id));
    return type;
  }

  /** The template id to store: null for none, else a template of the group (422 otherwise). */
  private async checkTemplate(
    manager: EntityManager,
    groupId: string,
    templateId: string | null | undefined,
  ): Promise<string | null> {
    if (templateId === undefined || templateId === null) return null;
    // FOR SHARE: the template cannot be deleted before this transaction stores its id.
    const template = await manager
      .getRepository(TemplateRecord)
      .createQueryBuilder('t')
      .select('t.id')
      .setLock('pessimistic_read')
      .where('t.id = :templateId AND t.group_id = :groupId', { templateId, groupId })
      .getOne();
    if (!template) {
      throw ValidationFailedException.forField(
        'defaultTemplateId',
        `template ${templateId} not found`,
      );
    }
    return template.id;
  }
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
