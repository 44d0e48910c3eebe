import {
  BadRequestException,
  ConflictException,
  Injectable,
  type OnModuleInit,
} from '@nestjs/common';
import { EntityParts, type EntityFiles } from './entity-parts.js';
import { Transactional } from '@nestjs-cls/transactional';
import type { AuthUser } from '../../../identity/auth/auth-user.js';
import { ResponseCache } from '../../../platform/http/response-cache.js';
import { ValidationFailedException } from '../../../platform/errors/validation-failed.exception.js';
import { JsonText } from '../../../platform/http/json-text.js';
import { compareByName } from '../../../platform/database/name-order.js';
import { notOwned, type FindOwnedOptions } from '../../../platform/database/owned.js';
import { EntityTypesService } from '../../entity-types/entity-types.service.js';
import { TagsService } from '../../tags/tags.service.js';
import { readAssetId } from './asset-id.js';
import type { CreateEntityDto } from './dto/create-entity.dto.js';
import type {
  AssetPageDto,
  EntityPageDto,
  EntityPathDto,
  EntitySummaryDto,
  EntityTreeNodeDto,
} from '../views/dto/entity-summary.dto.js';
import type { EntityFieldInputDto } from './dto/entity-field-input.dto.js';
import type { ListEntitiesQueryDto } from '../views/dto/list-entities.query.dto.js';
import type { PatchEntityDto } from './dto/patch-entity.dto.js';
import type { UpdateEntityDto } from './dto/update-entity.dto.js';
import { buildEntityFilter, entityOrder } from '../views/entity-filter.js';
import { EntityFieldRepository, type EntityFieldValues } from './entity-field.repository.js';
import {
  EntityRepository,
  type EndingWarranty,
  type InsertableEntity,
  type InsertedEntity,
} from './entity.repository.js';
import { EntityViewsService } from '../views/entity-views.service.js';
import type { EntityRecord } from './entity.record.js';
import { ChangeEvents } from '../../../platform/change-events/change-events.service.js';

export type { EndingWarranty, InsertableEntity, InsertedEntity } from './entity.repository.js';

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

export const PARENT_CYCLE_MESSAGE =
  'an entity cannot be placed inside itself or one of its descendants';

/**
 * Entities of the caller's group: every query is scoped by `user.groupId`, and every write that
 * touches several rows runs in one unit of work.
 */
@Injectable()
export class EntitiesService implements OnModuleInit {
  constructor(
    private readonly entities: EntityRepository,
    private readonly fields: EntityFieldRepository,
    private readonly views: EntityViewsService,
    private readonly tags: TagsService,
    private readonly entityTypes: EntityTypesService,
    private readonly changes: ChangeEvents,
    private readonly parts: EntityParts,
  ) {}

  /** Trees of locations built lately, by group, with the version of the tree they show. */
  private readonly locationTrees = new ResponseCache();

  /**
   * Unarchived entities of every group whose warranty (not a lifetime one) ends between `from`
   * and `to` (`YYYY-MM-DD`, inclusive), by group: for reminders, which run for all groups.
   */
  warrantiesEnding(from: string, to: string): Promise<EndingWarranty[]> {
    return this.entities.findWarrantiesEnding(from, to);
  }

  /**
   * One statement stores the entity when its type, parent and tags are the group's; only when it
   * stores nothing are they looked up one by one, to answer which was wrong (or, when the group
   * has no item type left, to make one and try again).
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
    // A unit of work by itself (attributed to the caller, with its change notice): the group's
    // row, which every create locks, is held for that statement only.
    const inserted =
      (await this.entities.tryInsert(
        user.groupId,
        values,
        tagIds,
        this.changes.notice(user.groupId, 'entity.mutation'),
      )) ?? (await this.storeChecked(user, dto, values, tagIds));
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
    if (dto.parentId) await this.findOwned(user, dto.parentId, { field: 'parentId' });
    return this.insert(user.groupId, values, tagIds);
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
    const inserted = await this.entities.tryInsert(
      groupId,
      values,
      tagIds,
      this.changes.notice(groupId, 'entity.mutation'),
    );
    if (!inserted) {
      throw new ConflictException(
        'the entity’s type, parent or tags changed while it was being stored; try again',
      );
    }
    return inserted;
  }

  /** Renames an entity of the group (a name filled in once its asset id is known). */
  async rename(groupId: string, id: string, name: string): Promise<void> {
    await this.entities.rename(groupId, id, name);
    await this.changes.publish(groupId, 'entity.mutation');
  }

  /** Adds custom fields to an entity, each at the position it has. */
  async insertFields(entityId: string, fields: EntityFieldValues[]): Promise<void> {
    await this.fields.insertFields(entityId, fields);
  }

  /** Entity types ask how many entities use a type before they delete it. */
  onModuleInit(): void {
    this.entityTypes.countUsesWith((typeId) => this.entities.countOfType(typeId));
  }

  async get(user: AuthUser, id: string): Promise<JsonText<EntitySummaryDto>> {
    return this.views.summary(user.groupId, id);
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

  /** The write of `update`, in one unit of work that ends before the answer is read. */
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
    await this.setTags(
      user.groupId,
      id,
      tags.map((tag) => tag.id),
    );
    await this.replaceFields(id, dto.fields ?? []);
    await this.changes.publish(user.groupId, 'entity.mutation');
  }

  /** The write of `patch`, in one unit of work that ends before the answer is read. */
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
      await this.setTags(
        user.groupId,
        id,
        tags.map((tag) => tag.id),
      );
    }
    await this.changes.publish(user.groupId, 'entity.mutation');
  }

  /**
   * Deletes the entity with its fields, attachments and maintenance; its children move to the
   * top. Then, once that is committed, deletes the stored files of its attachments that no
   * other attachment uses.
   */
  async remove(user: AuthUser, id: string): Promise<void> {
    const files = await this.deleteRow(user, id);
    await this.parts.releaseFiles(files);
  }

  /**
   * Inserts a copy of an entity of the group with its tags (and, with `copyFields`, its custom
   * fields), named `name`; its id. Maintenance and attachments are their modules' to copy.
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

  async list(user: AuthUser, query: ListEntitiesQueryDto): Promise<JsonText<EntityPageDto>> {
    const filter = buildEntityFilter(user.groupId, query);
    const paged = query.page !== undefined || query.pageSize !== undefined;
    const pageSize = query.pageSize && query.pageSize > 0 ? query.pageSize : paged ? 10 : 0;
    const page = Math.max(query.page ?? 1, 1);
    const { total, items, totalPrice } = await this.views.page(
      filter,
      entityOrder(query.orderBy),
      paged ? pageSize : undefined,
      (page - 1) * pageSize,
    );
    // The page's views are JSON already: the envelope is written around them.
    return new JsonText(
      `{"page":${query.page ?? -1},"pageSize":${query.pageSize ?? -1},"total":${total},` +
        `"items":[${items.join(',')}],"totalPrice":${JSON.stringify(totalPrice)}}`,
    );
  }

  /** Every entity of the group with this asset id (items, locations and archived), by name. */
  async findByAssetId(
    user: AuthUser,
    assetIdText: string,
    page: number | undefined,
    pageSize: number | undefined,
  ): Promise<JsonText<AssetPageDto>> {
    const assetId = readAssetId(assetIdText);
    if (assetId.problem !== undefined || assetId.value === 0n) {
      throw new BadRequestException(
        assetId.problem !== undefined && assetId.tooLarge
          ? `invalid asset id: ${assetId.problem}`
          : `invalid asset id: ${assetIdText}`,
      );
    }
    const ids = await this.entities.idsByAssetId(user.groupId, assetId.value);
    const items = await this.views.childSummaries(user.groupId, ids);
    return new JsonText(
      `{"page":${page ?? -1},"pageSize":${pageSize ?? -1},"total":${items.length},` +
        `"items":[${items.join(',')}]}`,
    );
  }

  /** From the top-level ancestor down to the entity itself. */
  async path(user: AuthUser, id: string): Promise<EntityPathDto[]> {
    const rows = await this.entities.path(user.groupId, id);
    if (rows.length === 0) throw notOwned('entity', id);
    return rows.map((row) => ({
      type: row.is_location ? 'location' : 'item',
      id: row.id,
      name: row.name,
    }));
  }

  /**
   * Top-level locations with the locations inside them, and with `withItems` the items inside
   * those (and items inside items), as JSON. The tree of locations alone is built once per
   * version of the group's tree of locations (`location_versions`) and carries that version as
   * its ETag.
   */
  async tree(user: AuthUser, withItems: boolean): Promise<JsonText<EntityTreeNodeDto[]>> {
    const { groupId } = user;
    if (withItems) return JsonText.of(await this.buildTree(groupId, true));
    const version = await this.entities.locationTreeVersion(groupId);
    return this.locationTrees.json(groupId, version, () => this.buildTree(groupId, false));
  }

  /** Locations before items, then by name; every entity once, under its parent. */
  private async buildTree(groupId: string, withItems: boolean): Promise<EntityTreeNodeDto[]> {
    const rows = await this.entities.treeRows(groupId, withItems);
    const nodes = new Map<string, EntityTreeNodeDto>(
      rows.map((row) => [
        row.id,
        { id: row.id, name: row.name, type: row.is_location ? 'location' : 'item', children: [] },
      ]),
    );
    const roots: EntityTreeNodeDto[] = [];
    for (const row of rows) {
      const node = nodes.get(row.id)!;
      const parent = row.parent_id ? nodes.get(row.parent_id) : undefined;
      if (parent) parent.children.push(node);
      else if (!row.parent_id && row.is_location) roots.push(node);
    }
    const order = (a: EntityTreeNodeDto, b: EntityTreeNodeDto): number =>
      (a.type === b.type ? 0 : a.type === 'location' ? -1 : 1) || compareByName(a, b);
    const seen = new Set<string>();
    const sort = (list: EntityTreeNodeDto[]): EntityTreeNodeDto[] => {
      const kept = list.filter((node) => !seen.has(node.id));
      for (const node of kept) seen.add(node.id);
      kept.sort(order);
      for (const node of kept) node.children = sort(node.children);
      return kept;
    };
    return sort(roots);
  }

  /** Distinct custom-field names in the group. */
  async fieldNames(user: AuthUser): Promise<string[]> {
    return this.fields.fieldNames(user.groupId);
  }

  /** Distinct text values of one custom field in the group. */
  async fieldValues(user: AuthUser, field: string): Promise<string[]> {
    return this.fields.fieldValues(user.groupId, field);
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

  async setTags(groupId: string, entityId: string, tagIds: string[]): Promise<void> {
    await this.entities.setTags(groupId, entityId, tagIds);
  }

  /** The starter locations of a new collection, of the group's location type. */
  async seedLocations(groupId: string, locationTypeId: string): Promise<void> {
    await this.entities.insertStarterLocations(groupId, locationTypeId, STARTER_LOCATIONS);
  }

  /** Deletes the entity row; the keys of the files other modules kept for it. */
  @Transactional()
  private async deleteRow(user: AuthUser, id: string): Promise<EntityFiles> {
    await this.entities.findOwned(user.groupId, id, { lock: true });
    const stored = await this.parts.filesOfEntities([id]);
    await this.entities.delete(user.groupId, id);
    await this.changes.publish(user.groupId, 'entity.mutation');
    return stored;
  }

  /** Sets the parent, refusing a parent outside the group, the entity itself or its descendants. */
  private async moveTo(
    user: AuthUser,
    record: EntityRecord,
    parentId: string | null,
  ): Promise<void> {
    if (parentId === record.parentId) return;
    if (parentId !== null) {
      await this.findOwned(user, parentId, { field: 'parentId' });
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

  /**
   * Removes the group's entities with their rows (a collection restore wipes its seed locations),
   * in the caller's unit of work.
   */
  async deleteAllOfGroup(groupId: string): Promise<void> {
    await this.entities.deleteAllOfGroup(groupId);
  }
}
