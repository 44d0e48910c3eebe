import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import type { AuthUser } from '../../../identity/auth/auth-user.js';
import { ChangeEvents } from '../../../platform/change-events/change-events.service.js';
import type { JsonText } from '../../../platform/http/json-text.js';
import { ValidationFailedException } from '../../../platform/errors/validation-failed.exception.js';
import { EntityTypesService } from '../../entity-types/entity-types.service.js';
import { StoredFilesService } from '../../stored-files/stored-files.service.js';
import { TagsService } from '../../tags/tags.service.js';
import type { EntitySummaryDto } from '../views/dto/entity-summary.dto.js';
import { EntityViewsService } from '../views/entity-views.service.js';
import { readAssetId } from '../core/asset-id.js';
import type { CreateEntityDto } from '../core/dto/create-entity.dto.js';
import type { EntityFieldInputDto } from '../core/dto/entity-field-input.dto.js';
import type { PatchEntityDto } from '../core/dto/patch-entity.dto.js';
import type { UpdateEntityDto } from '../core/dto/update-entity.dto.js';
import { EntitiesService, PARENT_CYCLE_MESSAGE } from '../core/entities.service.js';
import { EntityFieldRepository } from '../core/entity-field.repository.js';
import type { EntityRecord } from '../core/entity.record.js';
import {
  EntityRepository,
  type InsertableEntity,
  type InsertedEntity,
} from '../core/entity.repository.js';

/**
 * The API's writes of one entity of the caller's group (`POST`, `PUT`, `PATCH` and `DELETE` of
 * `/entities`): every query is scoped by `user.groupId`, every write that touches several rows
 * runs in one unit of work that ends before the answer (the entity's view) is read, and every
 * change is announced to the group (`ChangeEvents`).
 */
@Injectable()
export class EntityEditsService {
  constructor(
    private readonly entities: EntityRepository,
    private readonly fields: EntityFieldRepository,
    private readonly shared: EntitiesService,
    private readonly views: EntityViewsService,
    private readonly tags: TagsService,
    private readonly entityTypes: EntityTypesService,
    private readonly storedFiles: StoredFilesService,
    private readonly changes: ChangeEvents,
  ) {}

  /**
   * A create is one statement when its type, parent and tags are the group's: the statement is a
   * unit of work of its own, so the group's row, which every create locks for its asset id, is
   * held for that statement only. Only when it stores nothing are they looked up one by one, to
   * answer which was wrong (or, when the group has no item type left, to make one and try
   * again).
   */
  async create(user: AuthUser, dto: CreateEntityDto): Promise<JsonText<EntitySummaryDto>> {
    const tagIds = [...new Set(dto.tagIds ?? [])];
    const values = {
      name: dto.name,
      description: dto.description ?? '',
      entityTypeId: dto.entityTypeId ?? null,
      parentId: dto.parentId ?? null,
      quantity: dto.quantity ?? 1,
      modelNumber: dto.modelNumber ?? '',
      manufacturer: dto.manufacturer ?? '',
    };
    let inserted = await this.entities.tryInsert(user.groupId, values, tagIds);
    if (inserted) await this.changes.publish(user.groupId, 'entity.mutation');
    else inserted = await this.storeChecked(user, dto, values, tagIds);
    return this.views.summary(user.groupId, inserted.id);
  }

  /** `create` when its one statement stored nothing: which of type, parent and tags was wrong. */
  @Transactional()
  private async storeChecked(
    user: AuthUser,
    dto: CreateEntityDto,
    values: InsertableEntity,
    tagIds: string[],
  ): Promise<InsertedEntity> {
    await this.tags.findOwnedMany(user, tagIds);
    if (dto.entityTypeId) {
      await this.entityTypes.findOwnedOrFail(user, dto.entityTypeId, 'entityTypeId');
    } else {
      await this.entityTypes.defaultType(user.groupId, false);
    }
    if (dto.parentId)
      await this.entities.findOwned(user.groupId, dto.parentId, { field: 'parentId' });
    return this.shared.insert(user.groupId, values, tagIds);
  }

  /** Homebox's PUT: a full replacement; what is omitted is reset, except the entity type. */
  async update(
    user: AuthUser,
    id: string,
    dto: UpdateEntityDto,
  ): Promise<JsonText<EntitySummaryDto>> {
    await this.replace(user, id, dto);
    return this.views.summary(user.groupId, id);
  }

  /** Homebox's PATCH: quantity, parent, type and tags; absent or null leaves them as they are. */
  async patch(
    user: AuthUser,
    id: string,
    dto: PatchEntityDto,
  ): Promise<JsonText<EntitySummaryDto>> {
    await this.change(user, id, dto);
    return this.views.summary(user.groupId, id);
  }

  /**
   * Deletes the entity with its fields, attachments and maintenance; its children move to the
   * top. Then, once that is committed, deletes the stored files of its attachments that no
   * other attachment uses.
   */
  async remove(user: AuthUser, id: string): Promise<void> {
    const files = await this.deleteRow(user, id);
    await this.storedFiles.releaseUnused(files);
  }

  /** The write of `update`. */
  @Transactional()
  private async replace(user: AuthUser, id: string, dto: UpdateEntityDto): Promise<void> {
    const tags = await this.tags.findOwnedMany(user, dto.tagIds ?? []);
    const assetId = readAssetId(dto.assetId);
    if (assetId.problem !== undefined) {
      throw ValidationFailedException.forField('assetId', `assetId ${assetId.problem}`);
    }
    const record = await this.entities.findOwned(user.groupId, id, { lock: true });
    if (dto.entityTypeId) {
      record.entityTypeId = (
        await this.entityTypes.findOwnedOrFail(user, dto.entityTypeId, 'entityTypeId')
      ).id;
    }
    await this.moveTo(user, record, dto.parentId ?? null);
    Object.assign(record, {
      name: dto.name,
      description: dto.description ?? '',
      quantity: dto.quantity ?? 0,
      assetId: String(assetId.value),
      serialNumber: dto.serialNumber ?? '',
      modelNumber: dto.modelNumber ?? '',
      manufacturer: dto.manufacturer ?? '',
      insured: dto.insured ?? false,
      archived: dto.archived ?? false,
      lifetimeWarranty: dto.lifetimeWarranty ?? false,
      warrantyExpires: dto.warrantyExpires ?? null,
      warrantyDetails: dto.warrantyDetails ?? '',
      purchaseDate: dto.purchaseDate ?? null,
      purchaseFrom: dto.purchaseFrom ?? '',
      purchasePrice: String(dto.purchasePrice ?? 0),
      soldDate: dto.soldDate ?? null,
      soldTo: dto.soldTo ?? '',
      soldPrice: String(dto.soldPrice ?? 0),
      soldNotes: dto.soldNotes ?? '',
      notes: dto.notes ?? '',
      syncChildEntityLocations: dto.syncChildEntityLocations ?? false,
    });
    await this.entities.save(record);
    await this.shared.setTags(
      user.groupId,
      id,
      tags.map((tag) => tag.id),
    );
    await this.replaceFields(id, dto.fields ?? []);
    await this.changes.publish(user.groupId, 'entity.mutation');
  }

  /** The write of `patch`. */
  @Transactional()
  private async change(user: AuthUser, id: string, dto: PatchEntityDto): Promise<void> {
    const tags = dto.tagIds ? await this.tags.findOwnedMany(user, dto.tagIds) : undefined;
    const record = await this.entities.findOwned(user.groupId, id, { lock: true });
    if (dto.quantity !== undefined && dto.quantity !== null) record.quantity = dto.quantity;
    if (dto.entityTypeId) {
      record.entityTypeId = (
        await this.entityTypes.findOwnedOrFail(user, dto.entityTypeId, 'entityTypeId')
      ).id;
    }
    if (dto.parentId) await this.moveTo(user, record, dto.parentId);
    await this.entities.save(record);
    if (tags) {
      await this.shared.setTags(
        user.groupId,
        id,
        tags.map((tag) => tag.id),
      );
    }
    await this.changes.publish(user.groupId, 'entity.mutation');
  }

  /** Deletes the entity row; the keys of the stored files of its attachments. */
  @Transactional()
  private async deleteRow(user: AuthUser, id: string): Promise<string[]> {
    await this.entities.findOwned(user.groupId, id, { lock: true });
    const files = await this.storedFiles.keysOfEntities([id]);
    await this.tags.holdTree(user.groupId);
    await this.entities.delete(user.groupId, id);
    await this.changes.publish(user.groupId, 'entity.mutation');
    return files;
  }

  /** Sets the parent, refusing a parent outside the group, the entity itself or its descendants. */
  private async moveTo(
    user: AuthUser,
    record: EntityRecord,
    parentId: string | null,
  ): Promise<void> {
    if (parentId === record.parentId) return;
    if (parentId !== null) {
      await this.entities.findOwned(user.groupId, parentId, { field: 'parentId' });
      await this.entities.lockMoves(user.groupId);
      if (await this.entities.wouldCycle(user.groupId, parentId, record.id)) {
        throw ValidationFailedException.forField('parentId', PARENT_CYCLE_MESSAGE);
      }
    }
    record.parentId = parentId;
    record.parent = undefined;
  }

  /**
   * Fields with an id update that field, fields without one are added, the rest are deleted;
   * each keeps the place it was sent at.
   */
  private async replaceFields(entityId: string, fields: EntityFieldInputDto[]): Promise<void> {
    const existing = await this.fields.findFields(entityId);
    const byId = new Map(existing.map((field) => [field.id, field]));
    for (const [index, field] of fields.entries()) {
      if (field.id && !byId.has(field.id)) {
        throw ValidationFailedException.forField(
          `fields.${index}.id`,
          `field ${field.id} is not a field of this entity`,
        );
      }
    }
    const kept = new Set(fields.map((field) => field.id).filter(Boolean));
    await this.fields.deleteFields(
      entityId,
      existing.filter((field) => !kept.has(field.id)).map((field) => field.id),
    );
    for (const [position, field] of fields.entries()) {
      const values = {
        type: field.type,
        name: field.name,
        textValue: field.textValue ?? '',
        numberValue: String(field.numberValue ?? 0),
        booleanValue: field.booleanValue ?? false,
        position,
      };
      if (field.id) await this.fields.updateField(entityId, field.id, values);
      else await this.fields.insertFields(entityId, [values]);
    }
  }
}
