import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type DataSource, type EntityManager } from 'typeorm';
import type { AuthUser } from '../auth/auth-user.js';
import { ValidationFailedException } from '../common/errors/validation-failed.exception.js';
import { EntitiesService } from '../entities/entities.service.js';
import { toEntityStored } from '../entities/entity.mapper.js';
import { EntityFieldRecord } from '../entities/entity-field.record.js';
import { EntityRecord } from '../entities/entity.record.js';
import { toEntityTypeStored } from '../entity-types/entity-type.mapper.js';
import type { EntityTypeRecord } from '../entity-types/entity-type.record.js';
import { EntityTypesService } from '../entity-types/entity-types.service.js';
import { GroupRecord } from '../groups/group.record.js';
import { toMaintenanceEntryStored } from '../maintenance/maintenance-entry.mapper.js';
import { MaintenanceEntryRecord } from '../maintenance/maintenance-entry.record.js';
import { toTagStored } from '../tags/tag.mapper.js';
import { TagRecord } from '../tags/tag.record.js';
import { TagsService } from '../tags/tags.service.js';
import type { CreateEntityFromTemplateDto } from './dto/create-entity-from-template.dto.js';
import type { CreateTemplateDto } from './dto/create-template.dto.js';
import type { EntityFromTemplateStoredDto } from './dto/entity-from-template-stored.dto.js';
import type { TemplateFieldInputDto } from './dto/template-field-input.dto.js';
import type { TemplateListItemDto, TemplateSummaryDto } from './dto/template-summary.dto.js';
import type { UpdateTemplateDto } from './dto/update-template.dto.js';
import { toEntityFromTemplateStored, toGroupStored } from './entity-from-template.mapper.js';
import { fillPlaceholders } from './name-placeholders.js';
import { TemplateFieldRecord } from './template-field.record.js';
import { toTemplateListItem, toTemplateSummary } from './template.mapper.js';
import { TemplateRecord } from './template.record.js';
import { parseTimeValue } from './time-value.js';

/** Homebox clients send the zero UUID for "none". */
const NIL_UUID = '00000000-0000-0000-0000-000000000000';

const notFound = (id: string): NotFoundException =>
  new NotFoundException(`template ${id} not found`);

/** Template fields as loaded for views: in the order they were last sent. */
const FIELD_ORDER = { fields: { position: 'ASC', createdAt: 'ASC', id: 'ASC' } } as const;

/** The stored values of a custom field as a body gives them, sent at `position`. */
function fieldValues(
  field: TemplateFieldInputDto,
  position: number,
): Pick<
  TemplateFieldRecord,
  'type' | 'name' | 'textValue' | 'numberValue' | 'booleanValue' | 'timeValue' | 'position'
> {
  return {
    type: field.type,
    name: field.name,
    textValue: field.textValue ?? '',
    numberValue: String(field.numberValue ?? 0),
    booleanValue: field.booleanValue ?? false,
    timeValue: field.timeValue ? (parseTimeValue(field.timeValue) ?? null) : null,
    position,
  };
}

/** What a create or update replaces: everything but the nullable defaults. */
function replacedValues(
  dto: CreateTemplateDto,
  defaultTagIds: string[],
  defaultLocationId: string | null,
): Partial<TemplateRecord> {
  return {
    name: dto.name,
    description: dto.description ?? '',
    notes: dto.notes ?? '',
    defaultInsured: dto.defaultInsured ?? false,
    defaultLifetimeWarranty: dto.defaultLifetimeWarranty ?? false,
    includeWarrantyFields: dto.includeWarrantyFields ?? false,
    includePurchaseFields: dto.includePurchaseFields ?? false,
    includeSoldFields: dto.includeSoldFields ?? false,
    defaultLocationId,
    defaultTagIds,
  };
}

/** The nullable defaults a body sets: on update, omitted or null ones are left as they are. */
function givenDefaults(dto: CreateTemplateDto): Partial<TemplateRecord> {
  const given = {
    defaultQuantity: dto.defaultQuantity,
    defaultName: dto.defaultName,
    defaultDescription: dto.defaultDescription,
    defaultManufacturer: dto.defaultManufacturer,
    defaultModelNumber: dto.defaultModelNumber,
    defaultWarrantyDetails: dto.defaultWarrantyDetails,
  };
  return Object.fromEntries(
    Object.entries(given).filter(([, value]) => value !== undefined && value !== null),
  );
}

/**
 * Templates of the caller's group and entities created from them. Every query is scoped by
 * `user.groupId`; writes that touch several tables run in one transaction.
 */
@Injectable()
export class TemplatesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly entities: EntitiesService,
    private readonly tags: TagsService,
    private readonly entityTypes: EntityTypesService,
  ) {}

  /** The group's templates by name: case-insensitive, then by code point, then id. */
  async list(user: AuthUser): Promise<TemplateListItemDto[]> {
    const records = await this.dataSource
      .getRepository(TemplateRecord)
      .createQueryBuilder('t')
      .where('t.group_id = :groupId', { groupId: user.groupId })
      .orderBy('lower(t.name) COLLATE "C"', 'ASC')
      .addOrderBy('t.name COLLATE "C"', 'ASC')
      .addOrderBy('t.id', 'ASC')
      .getMany();
    return records.map(toTemplateListItem);
  }

  async get(user: AuthUser, id: string): Promise<TemplateSummaryDto> {
    return this.summary(this.dataSource.manager, user.groupId, id);
  }

  async create(user: AuthUser, dto: CreateTemplateDto): Promise<TemplateSummaryDto> {
    const tags = await this.tags.findOwnedMany(user, dto.defaultTagIds ?? [], 'defaultTagIds');
    const id = await this.dataSource.transaction(async (manager) => {
      const defaultLocationId = await this.checkLocation(manager, user, dto.defaultLocationId);
      const record = await manager.save(
        TemplateRecord,
        manager.create(TemplateRecord, {
          groupId: user.groupId,
          defaultQuantity: 1,
          defaultName: '',
          defaultDescription: '',
          defaultManufacturer: '',
          defaultModelNumber: '',
          defaultWarrantyDetails: '',
          ...givenDefaults(dto),
          ...replacedValues(
            dto,
            tags.map((tag) => tag.id),
            defaultLocationId,
          ),
        }),
      );
      for (const [position, field] of (dto.fields ?? []).entries()) {
        await manager.insert(TemplateFieldRecord, {
          ...fieldValues(field, position),
          templateId: record.id,
        });
      }
      return record.id;
    });
    return this.summary(this.dataSource.manager, user.groupId, id);
  }

  /** Homebox's PUT: see UpdateTemplateDto for what is kept and what is replaced. */
  async update(user: AuthUser, id: string, dto: UpdateTemplateDto): Promise<TemplateSummaryDto> {
    await this.dataSource.transaction(async (manager) => {
      await this.lockOwned(manager, user, id);
      const tags = await this.tags.findOwnedMany(user, dto.defaultTagIds ?? [], 'defaultTagIds');
      const defaultLocationId = await this.checkLocation(manager, user, dto.defaultLocationId);
      const fields = dto.fields ?? [];
      const existing = await manager.find(TemplateFieldRecord, { where: { templateId: id } });
      const known = new Set(existing.map((field) => field.id));
      const listed = new Set<string>();
      for (const [index, field] of fields.entries()) {
        if (!field.id) continue;
        if (!known.has(field.id)) {
          throw ValidationFailedException.forField(
            `fields.${index}.id`,
            `field ${field.id} is not a field of this template`,
          );
        }
        if (listed.has(field.id)) {
          throw ValidationFailedException.forField(
            `fields.${index}.id`,
            `field ${field.id} is listed more than once`,
          );
        }
        listed.add(field.id);
      }

      // update() sets updated_at, so the template counts as changed even when only fields do.
      await manager.update(
        TemplateRecord,
        { id, groupId: user.groupId },
        {
          ...givenDefaults(dto),
          ...replacedValues(
            dto,
            tags.map((tag) => tag.id),
            defaultLocationId,
          ),
        },
      );
      const removed = existing.filter((field) => !listed.has(field.id)).map((field) => field.id);
      if (removed.length > 0) await manager.delete(TemplateFieldRecord, { id: In(removed) });
      for (const [position, field] of fields.entries()) {
        if (field.id) {
          await manager.update(
            TemplateFieldRecord,
            { id: field.id, templateId: id },
            fieldValues(field, position),
          );
        } else {
          await manager.insert(TemplateFieldRecord, {
            ...fieldValues(field, position),
            templateId: id,
          });
        }
      }
    });
    return this.summary(this.dataSource.manager, user.groupId, id);
  }

  /** Deletes a template with its fields; entity types using it as default lose their default. */
  async remove(user: AuthUser, id: string): Promise<void> {
    const result = await this.dataSource
      .getRepository(TemplateRecord)
      .delete({ id, groupId: user.groupId });
    if (!result.affected) throw notFound(id);
  }

  /**
   * Creates an entity from a template (spec §4.9): what the body leaves out comes from the
   * template; insured, lifetime warranty, manufacturer, model number, warranty details and every
   * custom field with its values are copied. Entity, tags and fields are written in one
   * transaction; the answer is the entity's stored view with its edges.
   */
  async createEntity(
    user: AuthUser,
    id: string,
    dto: CreateEntityFromTemplateDto,
  ): Promise<EntityFromTemplateStoredDto> {
    return this.dataSource.transaction(async (manager) => {
      const template = await manager.findOne(TemplateRecord, {
        where: { id, groupId: user.groupId },
        relations: { fields: true },
        order: FIELD_ORDER,
      });
      if (!template) throw notFound(id);
      const requestedName = dto.name || template.defaultName;
      if (!requestedName) {
        throw ValidationFailedException.forField(
          'name',
          'name is required: send one, or give the template a default name',
        );
      }
      const tags = dto.tagIds
        ? await this.tags.findOwnedMany(user, dto.tagIds, 'tagIds')
        : await this.existingTags(manager, user.groupId, template.defaultTagIds);
      const type = dto.entityTypeId
        ? await this.entityTypes.findOwnedOrFail(user, dto.entityTypeId, 'entityTypeId')
        : await this.entityTypes.defaultType(user.groupId, false);
      const parentId =
        dto.parentId === undefined || dto.parentId === null
          ? template.defaultLocationId
          : dto.parentId === NIL_UUID
            ? null
            : dto.parentId;
      const parent = parentId
        ? await this.entities.findOwnedIn(manager, user, parentId, 'parentId')
        : null;

      const inserted = await this.entities.insert(manager, user.groupId, {
        name: requestedName,
        description: dto.description ?? template.defaultDescription,
        entityTypeId: type.id,
        parentId: parent?.id ?? null,
        quantity: dto.quantity ?? template.defaultQuantity,
        insured: template.defaultInsured,
        lifetimeWarranty: template.defaultLifetimeWarranty,
        manufacturer: template.defaultManufacturer,
        modelNumber: template.defaultModelNumber,
        warrantyDetails: template.defaultWarrantyDetails,
      });
      // {{counter}} is the asset id just allocated, so the name is filled after the insert.
      const name = fillPlaceholders(requestedName, {
        now: inserted.createdAt,
        counter: Number(inserted.assetId),
      });
      if (name.length > 255) {
        throw ValidationFailedException.forField(
          'name',
          'name must be shorter than or equal to 255 characters once its placeholders are filled',
        );
      }
      if (name !== requestedName) await manager.update(EntityRecord, { id: inserted.id }, { name });
      await this.entities.setTags(
        manager,
        inserted.id,
        tags.map((tag) => tag.id),
      );
      for (const [position, field] of (template.fields ?? []).entries()) {
        await manager.insert(EntityFieldRecord, {
          entityId: inserted.id,
          type: field.type,
          name: field.name,
          description: field.description,
          // Entity fields show no time value, so a time travels as its RFC 3339 text too.
          textValue: field.timeValue ? field.timeValue.toISOString() : field.textValue,
          numberValue: field.numberValue,
          booleanValue: field.booleanValue,
          timeValue: field.timeValue,
          position,
        });
      }
      return this.storedEntity(manager, user.groupId, inserted.id, type, parent, tags);
    });
  }

  /** The summary view of a template of the group, or 404. */
  private async summary(
    manager: EntityManager,
    groupId: string,
    id: string,
  ): Promise<TemplateSummaryDto> {
    const record = await manager.findOne(TemplateRecord, {
      where: { id, groupId },
      relations: { defaultLocation: true, fields: true },
      order: FIELD_ORDER,
    });
    if (!record) throw notFound(id);
    const tags = await this.existingTags(manager, groupId, record.defaultTagIds);
    return toTemplateSummary(record, tags);
  }

  /** Locks a template of the caller's group until the transaction ends, or 404. */
  private async lockOwned(manager: EntityManager, user: AuthUser, id: string): Promise<void> {
    const record = await manager
      .getRepository(TemplateRecord)
      .createQueryBuilder('t')
      .select('t.id')
      .setLock('pessimistic_write')
      .where('t.id = :id AND t.group_id = :groupId', { id, groupId: user.groupId })
      .getOne();
    if (!record) throw notFound(id);
  }

  /** The default location to store: null for none, else an entity of the group (422 otherwise). */
  private async checkLocation(
    manager: EntityManager,
    user: AuthUser,
    locationId: string | null | undefined,
  ): Promise<string | null> {
    if (!locationId || locationId === NIL_UUID) return null;
    return (await this.entities.findOwnedIn(manager, user, locationId, 'defaultLocationId')).id;
  }

  /** The group's tags among `ids`, in that order; ids of tags deleted since are dropped. */
  private async existingTags(
    manager: EntityManager,
    groupId: string,
    ids: string[],
  ): Promise<TagRecord[]> {
    if (ids.length === 0) return [];
    const records = await manager.findBy(TagRecord, { id: In(ids), groupId });
    const byId = new Map(records.map((record) => [record.id, record]));
    return [...new Set(ids)]
      .map((tagId) => byId.get(tagId))
      .filter((record): record is TagRecord => record !== undefined);
  }

  /** The stored view of a new entity with the edges of spec §2.6. */
  private async storedEntity(
    manager: EntityManager,
    groupId: string,
    id: string,
    type: EntityTypeRecord,
    parent: EntityRecord | null,
    tags: TagRecord[],
  ): Promise<EntityFromTemplateStoredDto> {
    // One after another: the queries share the transaction's connection.
    const record = await manager.findOneByOrFail(EntityRecord, { id, groupId });
    const group = await manager.findOneByOrFail(GroupRecord, { id: groupId });
    const entries = await manager.find(MaintenanceEntryRecord, {
      where: { entityId: id },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    const location = parent ? await this.nearestLocation(manager, groupId, parent.id) : null;
    return toEntityFromTemplateStored(record, {
      attachments: [],
      children: [],
      entity_type: toEntityTypeStored(type),
      group: toGroupStored(group),
      location: location ? toEntityStored(location) : null,
      maintenance_entries: entries.map((entry) => toMaintenanceEntryStored(entry)),
      parent: parent ? toEntityStored(parent) : null,
      tag: tags.map((tag) => toTagStored(tag)),
    });
  }

  /** The entity itself or its nearest ancestor whose type is a location, if any. */
  private async nearestLocation(
    manager: EntityManager,
    groupId: string,
    id: string,
  ): Promise<EntityRecord | null> {
    const rows = await manager.query<{ id: string }[]>(
      `WITH RECURSIVE up(id, parent_id, depth) AS (
         SELECT id, parent_id, 0 FROM entities WHERE id = $1 AND group_id = $2
         UNION ALL
         SELECT e.id, e.parent_id, up.depth + 1 FROM entities e JOIN up ON e.id = up.parent_id
         WHERE e.group_id = $2 AND up.depth < 1000
       )
       SELECT up.id FROM up
       JOIN entities e ON e.id = up.id JOIN entity_types t ON t.id = e.entity_type_id
       WHERE t.is_location ORDER BY up.depth LIMIT 1`,
      [id, groupId],
    );
    return rows.length > 0 ? manager.findOneBy(EntityRecord, { id: rows[0].id, groupId }) : null;
  }
}
