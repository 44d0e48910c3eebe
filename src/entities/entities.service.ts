import {
  BadRequestException,
  ConflictException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, type EntityManager, In } from 'typeorm';
import { AttachmentRecord } from '../attachments/attachment.record.js';
import type { AuthUser } from '../auth/auth-user.js';
import { ValidationFailedException } from '../common/errors/validation-failed.exception.js';
import { preparedQuery } from '../database/prepared-query.js';
import { EntityTypesService } from '../entity-types/entity-types.service.js';
import { MaintenanceEntryRecord } from '../maintenance/maintenance-entry.record.js';
import { StoredFilesService } from '../storage/stored-files.service.js';
import { TagsService } from '../tags/tags.service.js';
import { parseAssetId } from './asset-id.js';
import type { CreateEntityDto } from './dto/create-entity.dto.js';
import type { DuplicateEntityDto } from './dto/duplicate-entity.dto.js';
import type {
  AssetPageDto,
  EntityPageDto,
  EntityPathDto,
  EntitySummaryDto,
  EntityTreeNodeDto,
} from './dto/entity-summary.dto.js';
import type { EntityFieldInputDto } from './dto/entity-field-input.dto.js';
import type { ListEntitiesQueryDto } from './dto/list-entities.query.dto.js';
import type { PatchEntityDto } from './dto/patch-entity.dto.js';
import type { UpdateEntityDto } from './dto/update-entity.dto.js';
import { buildEntityFilter, entityOrder } from './entity-filter.js';
import { EntityFieldRecord } from './entity-field.record.js';
import { EntityViewsService } from './entity-views.service.js';
import { EntityRepository } from './entity.repository.js';
import { EntityRecord } from './entity.record.js';

/** Columns the database or the insert fills in, never taken from the values given. */
const GENERATED_PROPERTIES = new Set(['id', 'groupId', 'assetId', 'createdAt', 'updatedAt']);

/** What an insert is given: a name, a type (null: the group's default item type) and any columns. */
export type InsertableEntity = Partial<Omit<EntityRecord, 'entityTypeId'>> &
  Pick<EntityRecord, 'name'> & { entityTypeId: string | null };

export interface InsertedEntity {
  id: string;
  /** The allocated asset id, as the database returns a bigint: a decimal string. */
  assetId: string;
  createdAt: Date;
}

/**
 * Tree order of names: case- and accent-insensitive. One collator for all comparisons
 * (`localeCompare` with options builds one per call, which dominated the tree's time).
 */
const BY_NAME = new Intl.Collator(undefined, { sensitivity: 'base' });

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
 * touches several tables runs in one transaction.
 */
@Injectable()
export class EntitiesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly views: EntityViewsService,
    private readonly tags: TagsService,
    private readonly entityTypes: EntityTypesService,
    private readonly storedFiles: StoredFilesService,
    private readonly entities: EntityRepository,
  ) {}

  /** The starter locations of a new collection, of the group's location type. */
  async seedLocations(groupId: string, locationTypeId: string): Promise<void> {
    await this.entities.insertStarterLocations(groupId, locationTypeId, STARTER_LOCATIONS);
  }

  /**
   * One statement stores the entity when its type, parent and tags are the group's; only when it
   * stores nothing are they looked up one by one, to answer which was wrong (or, when the group
   * has no item type left, to make one and try again).
   */
  async create(user: AuthUser, dto: CreateEntityDto): Promise<EntitySummaryDto> {
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
    const manager = this.dataSource.manager;
    let inserted = await this.tryInsert(manager, user.groupId, values, tagIds);
    if (!inserted) {
      await this.tags.findOwnedMany(user, tagIds);
      if (dto.entityTypeId) {
        await this.entityTypes.findOwnedOrFail(user, dto.entityTypeId, 'entityTypeId');
      } else {
        await this.entityTypes.defaultType(user.groupId, false);
      }
      if (dto.parentId) await this.findOwnedIn(manager, user, dto.parentId, 'parentId');
      inserted = await this.insert(manager, user.groupId, values, tagIds);
    }
    return this.views.summary(user.groupId, inserted.id);
  }

  /** As `tryInsert`, for callers that checked the type, parent and tags in their transaction. */
  async insert(
    manager: EntityManager,
    groupId: string,
    values: InsertableEntity,
    tagIds: string[] = [],
  ): Promise<InsertedEntity> {
    const inserted = await this.tryInsert(manager, groupId, values, tagIds);
    if (!inserted) {
      throw new ConflictException(
        'the entity’s type, parent or tags changed while it was being stored; try again',
      );
    }
    return inserted;
  }

  /**
   * Inserts an entity with the next asset id of the group, and its tags, in one statement, if
   * its type (null: the group's oldest item type), parent and tags are all of the group;
   * undefined when one is not. `entity_next_asset_id` locks the group row until the
   * transaction ends (at once outside one), so concurrent creates never share an asset id.
   */
  async tryInsert(
    manager: EntityManager,
    groupId: string,
    values: InsertableEntity,
    tagIds: string[] = [],
  ): Promise<InsertedEntity | undefined> {
    const metadata = manager.connection.getMetadata(EntityRecord);
    const params: unknown[] = [
      groupId,
      [...new Set(tagIds)],
      values.entityTypeId,
      values.parentId ?? null,
    ];
    const columns: string[] = [];
    const placeholders: string[] = [];
    for (const [property, value] of Object.entries(values)) {
      if (value === undefined || (typeof value === 'object' && value !== null)) continue;
      if (GENERATED_PROPERTIES.has(property) || property === 'entityTypeId') continue;
      const column = metadata.columns.find((candidate) => candidate.propertyName === property);
      if (!column) continue;
      params.push(value);
      columns.push(`, "${column.databaseName}"`);
      placeholders.push(`, $${params.length}`);
    }
    const sql = `WITH created AS (
         INSERT INTO entities (group_id, asset_id, entity_type_id${columns.join('')})
         SELECT $1, entity_next_asset_id($1), t.id${placeholders.join('')}
         FROM entity_types t
         WHERE t.group_id = $1
           AND t.id = coalesce($3::uuid, (SELECT d.id FROM entity_types d
                                          WHERE d.group_id = $1 AND NOT d.is_location
                                          ORDER BY d.created_at, d.id LIMIT 1))
           AND ($4::uuid IS NULL OR EXISTS (SELECT 1 FROM entities p WHERE p.id = $4 AND p.group_id = $1))
           AND (SELECT count(*) FROM tags g WHERE g.id = ANY($2::uuid[]) AND g.group_id = $1)
               = cardinality($2::uuid[])
         RETURNING id, asset_id, created_at
       ), tagged AS (
         INSERT INTO entity_tags (entity_id, tag_id)
         SELECT created.id, tag FROM created, unnest($2::uuid[]) AS tag
       )
       SELECT id, asset_id, created_at FROM created`;
    type Row = { id: string; asset_id: string; created_at: Date };
    // Outside a transaction (a plain create) the statement runs prepared.
    const [row] =
      manager === this.dataSource.manager
        ? await preparedQuery<Row>(this.dataSource, sql, params)
        : await manager.query<Row[]>(sql, params);
    return row && { id: row.id, assetId: String(row.asset_id), createdAt: row.created_at };
  }

  async get(user: AuthUser, id: string): Promise<EntitySummaryDto> {
    return this.views.summary(user.groupId, id);
  }

  /** Homebox's PUT: a full replacement; what is omitted is reset, except the entity type. */
  async update(user: AuthUser, id: string, dto: UpdateEntityDto): Promise<EntitySummaryDto> {
    const tags = await this.tags.findOwnedMany(user, dto.tagIds ?? []);
    const assetId = parseAssetId(dto.assetId);
    if (assetId === undefined) {
      throw ValidationFailedException.forField('assetId', 'assetId must be a number like 000-123');
    }
    await this.dataSource.transaction(async (manager) => {
      const record = await this.lockOwned(manager, user, id);
      if (dto.entityTypeId) {
        record.entityTypeId = (
          await this.entityTypes.findOwnedOrFail(user, dto.entityTypeId, 'entityTypeId')
        ).id;
      }
      await this.moveTo(manager, user, record, dto.parentId ?? null);
      Object.assign(record, {
        name: dto.name,
        description: dto.description ?? '',
        quantity: dto.quantity ?? 0,
        assetId: String(assetId),
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
      await manager.save(EntityRecord, record);
      await this.setTags(
        manager,
        id,
        tags.map((tag) => tag.id),
      );
      await this.replaceFields(manager, id, dto.fields ?? []);
    });
    return this.views.summary(user.groupId, id);
  }

  /** Homebox's PATCH: quantity, parent, type and tags; absent or null leaves them as they are. */
  async patch(user: AuthUser, id: string, dto: PatchEntityDto): Promise<EntitySummaryDto> {
    const tags = dto.tagIds ? await this.tags.findOwnedMany(user, dto.tagIds) : undefined;
    await this.dataSource.transaction(async (manager) => {
      const record = await this.lockOwned(manager, user, id);
      if (dto.quantity !== undefined && dto.quantity !== null) record.quantity = dto.quantity;
      if (dto.entityTypeId) {
        record.entityTypeId = (
          await this.entityTypes.findOwnedOrFail(user, dto.entityTypeId, 'entityTypeId')
        ).id;
      }
      if (dto.parentId) await this.moveTo(manager, user, record, dto.parentId);
      await manager.save(EntityRecord, record);
      if (tags)
        await this.setTags(
          manager,
          id,
          tags.map((tag) => tag.id),
        );
    });
    return this.views.summary(user.groupId, id);
  }

  /**
   * Deletes the entity with its fields, attachments and maintenance; its children move to the
   * top. Then deletes the stored files of its attachments that no other attachment uses.
   */
  async remove(user: AuthUser, id: string): Promise<void> {
    // Read before the transaction opens, so it never waits for a second connection.
    const stored = await this.storedFiles.keysOfEntity(id);
    const keys = await this.dataSource.transaction(async (manager) => {
      const result = await manager.delete(EntityRecord, { id, groupId: user.groupId });
      if (!result.affected) throw new NotFoundException(`entity ${id} not found`);
      return stored;
    });
    await this.storedFiles.releaseUnused(keys);
  }

  async duplicate(user: AuthUser, id: string, dto: DuplicateEntityDto): Promise<EntitySummaryDto> {
    const copyId = await this.dataSource.transaction(async (manager) => {
      const source = await manager.findOne(EntityRecord, {
        where: { id, groupId: user.groupId },
        relations: { tags: true },
      });
      if (!source) throw new NotFoundException(`entity ${id} not found`);
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
        manager,
        user.groupId,
        { ...values, name: `${dto.copyPrefix ?? 'Copy of '}${source.name}`.slice(0, 255) },
        (tags ?? []).map((tag) => tag.id),
      );
      if (dto.copyCustomFields) {
        const fields = await manager.find(EntityFieldRecord, { where: { entityId: id } });
        await manager.insert(
          EntityFieldRecord,
          fields.map(({ id: _f, createdAt: _fc, updatedAt: _fu, entityId: _e, ...field }) => ({
            ...field,
            entityId: copy.id,
          })),
        );
      }
      if (dto.copyMaintenance) {
        const entries = await manager.find(MaintenanceEntryRecord, { where: { entityId: id } });
        await manager.insert(
          MaintenanceEntryRecord,
          entries.map(({ id: _m, createdAt: _mc, updatedAt: _mu, entityId: _e, ...entry }) => ({
            ...entry,
            entityId: copy.id,
          })),
        );
      }
      if (dto.copyAttachments) {
        const attachments = await manager.find(AttachmentRecord, { where: { entityId: id } });
        await manager.insert(
          AttachmentRecord,
          attachments
            .filter((attachment) => attachment.type !== 'thumbnail')
            .map(
              ({
                id: _t,
                createdAt: _tc,
                updatedAt: _tu,
                entityId: _e,
                thumbnailId: _th,
                ...attachment
              }) => ({
                ...attachment,
                entityId: copy.id,
                thumbnailId: null,
              }),
            ),
        );
      }
      return copy.id;
    });
    return this.views.summary(user.groupId, copyId);
  }

  async list(user: AuthUser, query: ListEntitiesQueryDto): Promise<EntityPageDto> {
    const tagIds = query.tags?.length
      ? await this.tags.expandWithDescendants(user, query.tags)
      : undefined;
    const filter = buildEntityFilter(user.groupId, query, tagIds);
    const paged = query.page !== undefined || query.pageSize !== undefined;
    const pageSize = query.pageSize && query.pageSize > 0 ? query.pageSize : paged ? 10 : 0;
    const page = Math.max(query.page ?? 1, 1);
    const { total, items } = await this.views.page(
      filter,
      entityOrder(query.orderBy),
      paged ? pageSize : undefined,
      (page - 1) * pageSize,
    );
    return {
      page: query.page ?? -1,
      pageSize: query.pageSize ?? -1,
      total,
      items,
      totalPrice: items
        .filter((item) => item.soldDate === '')
        .reduce((sum, item) => sum + item.purchasePrice, 0),
    };
  }

  /** Every entity of the group with this asset id (items, locations and archived), by name. */
  async findByAssetId(
    user: AuthUser,
    assetIdText: string,
    page: number | undefined,
    pageSize: number | undefined,
  ): Promise<AssetPageDto> {
    const assetId = parseAssetId(assetIdText);
    if (assetId === undefined || assetId === 0) {
      throw new BadRequestException(`invalid asset id: ${assetIdText}`);
    }
    const rows = await this.dataSource.query<{ id: string }[]>(
      `SELECT id FROM entities WHERE group_id = $1 AND asset_id = $2 ORDER BY lower(name), id`,
      [user.groupId, assetId],
    );
    const items = await this.views.childSummaries(
      user.groupId,
      rows.map((row) => row.id),
    );
    return { page: page ?? -1, pageSize: pageSize ?? -1, total: items.length, items };
  }

  /** From the top-level ancestor down to the entity itself. */
  async path(user: AuthUser, id: string): Promise<EntityPathDto[]> {
    const rows = await this.dataSource.query<{ id: string; name: string; is_location: boolean }[]>(
      `WITH RECURSIVE up(id, parent_id, depth) AS (
         SELECT id, parent_id, 0 FROM entities WHERE id = $1 AND group_id = $2
         UNION ALL
         SELECT e.id, e.parent_id, up.depth + 1 FROM entities e JOIN up ON e.id = up.parent_id
         WHERE e.group_id = $2 AND up.depth < 1000
       )
       SELECT up.id, e.name, t.is_location FROM up
       JOIN entities e ON e.id = up.id JOIN entity_types t ON t.id = e.entity_type_id
       ORDER BY up.depth DESC`,
      [id, user.groupId],
    );
    if (rows.length === 0) throw new NotFoundException(`entity ${id} not found`);
    return rows.map((row) => ({
      type: row.is_location ? 'location' : 'item',
      id: row.id,
      name: row.name,
    }));
  }

  /**
   * Top-level locations with the locations inside them, and with `withItems` the items inside
   * those (and items inside items). Locations come before items, then by name.
   */
  async tree(user: AuthUser, withItems: boolean): Promise<EntityTreeNodeDto[]> {
    const rows = await this.dataSource.query<
      { id: string; name: string; parent_id: string | null; is_location: boolean }[]
    >(
      `SELECT e.id, e.name, e.parent_id, t.is_location FROM entities e
       JOIN entity_types t ON t.id = e.entity_type_id
       WHERE e.group_id = $1 ${withItems ? '' : 'AND t.is_location'}`,
      [user.groupId],
    );
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
      (a.type === b.type ? 0 : a.type === 'location' ? -1 : 1) ||
      BY_NAME.compare(a.name, b.name) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
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
    const rows = await this.dataSource.query<{ name: string }[]>(
      `SELECT DISTINCT f.name FROM entity_fields f JOIN entities e ON e.id = f.entity_id
       WHERE e.group_id = $1 ORDER BY f.name`,
      [user.groupId],
    );
    return rows.map((row) => row.name);
  }

  /** Distinct text values of one custom field in the group. */
  async fieldValues(user: AuthUser, field: string): Promise<string[]> {
    const rows = await this.dataSource.query<{ value: string }[]>(
      `SELECT DISTINCT f.text_value AS value FROM entity_fields f JOIN entities e ON e.id = f.entity_id
       WHERE e.group_id = $1 AND f.name = $2 AND f.text_value <> '' ORDER BY f.text_value`,
      [user.groupId, field],
    );
    return rows.map((row) => row.value);
  }

  /** An entity of the caller's group, or 404. */
  async findOwnedOrFail(
    user: AuthUser,
    id: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<EntityRecord> {
    const record = await manager.findOneBy(EntityRecord, { id, groupId: user.groupId });
    if (!record) throw new NotFoundException(`entity ${id} not found`);
    return record;
  }

  /** An entity of the caller's group, or 422 naming the body field that referred to it. */
  async findOwnedIn(
    manager: EntityManager,
    user: AuthUser,
    id: string,
    field: string,
  ): Promise<EntityRecord> {
    const record = await manager.findOneBy(EntityRecord, { id, groupId: user.groupId });
    if (!record) throw ValidationFailedException.forField(field, `entity ${id} not found`);
    return record;
  }

  async setTags(manager: EntityManager, entityId: string, tagIds: string[]): Promise<void> {
    await manager.query('DELETE FROM entity_tags WHERE entity_id = $1', [entityId]);
    if (tagIds.length === 0) return;
    await manager.query(
      'INSERT INTO entity_tags (entity_id, tag_id) SELECT $1, unnest($2::uuid[]) ON CONFLICT DO NOTHING',
      [entityId, tagIds],
    );
  }

  private async lockOwned(
    manager: EntityManager,
    user: AuthUser,
    id: string,
  ): Promise<EntityRecord> {
    const record = await manager
      .getRepository(EntityRecord)
      .createQueryBuilder('e')
      .setLock('pessimistic_write')
      .where('e.id = :id AND e.group_id = :groupId', { id, groupId: user.groupId })
      .getOne();
    if (!record) throw new NotFoundException(`entity ${id} not found`);
    return record;
  }

  /** Sets the parent, refusing a parent outside the group, the entity itself or its descendants. */
  private async moveTo(
    manager: EntityManager,
    user: AuthUser,
    record: EntityRecord,
    parentId: string | null,
  ): Promise<void> {
    if (parentId === record.parentId) return;
    if (parentId !== null) {
      await this.findOwnedIn(manager, user, parentId, 'parentId');
      // Moves in one group take turns, so two concurrent moves cannot close a loop.
      await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
        `entity-moves:${user.groupId}`,
      ]);
      const loop = await manager.query<unknown[]>(
        `WITH RECURSIVE up(id, parent_id, depth) AS (
           SELECT id, parent_id, 0 FROM entities WHERE id = $1
           UNION ALL
           SELECT e.id, e.parent_id, up.depth + 1 FROM entities e JOIN up ON e.id = up.parent_id
           WHERE up.depth < 1000
         ) SELECT 1 FROM up WHERE id = $2 LIMIT 1`,
        [parentId, record.id],
      );
      if (loop.length > 0)
        throw ValidationFailedException.forField('parentId', PARENT_CYCLE_MESSAGE);
    }
    record.parentId = parentId;
    record.parent = undefined;
  }

  /**
   * Fields with an id update that field, fields without one are added, the rest are deleted;
   * each keeps the place it was sent at.
   */
  private async replaceFields(
    manager: EntityManager,
    entityId: string,
    fields: EntityFieldInputDto[],
  ): Promise<void> {
    const existing = await manager.find(EntityFieldRecord, { where: { entityId } });
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
    const removed = existing.filter((field) => !kept.has(field.id)).map((field) => field.id);
    if (removed.length > 0) await manager.delete(EntityFieldRecord, { id: In(removed) });
    for (const [position, field] of fields.entries()) {
      const values = {
        entityId,
        type: field.type,
        name: field.name,
        textValue: field.textValue ?? '',
        numberValue: String(field.numberValue ?? 0),
        booleanValue: field.booleanValue ?? false,
        position,
      };
      if (field.id) await manager.update(EntityFieldRecord, { id: field.id }, values);
      else await manager.insert(EntityFieldRecord, values);
    }
  }
}
