import { Injectable, NotFoundException } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { ValidationFailedException } from '../../platform/errors/validation-failed.exception.js';
import { JsonText } from '../../platform/http/json-text.js';
import { EntitiesService } from '../entities/core/entities.service.js';
import { toEntityStored } from '../entities/views/entity.mapper.js';
import type { EntityRecord } from '../entities/core/entity.record.js';
import { toEntityTypeStored } from '../entity-types/entity-type.mapper.js';
import type { EntityTypeRecord } from '../entity-types/entity-type.record.js';
import { EntityTypesService } from '../entity-types/entity-types.service.js';
import { GroupsService } from '../../identity/groups/groups.service.js';
import { toTagStored } from '../tags/tag.mapper.js';
import type { TagRecord } from '../tags/tag.record.js';
import { TagsService } from '../tags/tags.service.js';
import type { CreateEntityFromTemplateDto } from './dto/create-entity-from-template.dto.js';
import type { CreateTemplateDto } from './dto/create-template.dto.js';
import type { EntityFromTemplateStoredDto } from './dto/entity-from-template-stored.dto.js';
import type { TemplateFieldInputDto } from './dto/template-field-input.dto.js';
import type { TemplateListItemDto, TemplateSummaryDto } from './dto/template-summary.dto.js';
import type { UpdateTemplateDto } from './dto/update-template.dto.js';
import { toEntityFromTemplateStored, toGroupStored } from './entity-from-template.mapper.js';
import { fillPlaceholders } from './name-placeholders.js';
import { toTemplateListItem, toTemplateSummary } from './template.mapper.js';
import type { TemplateRecord } from './template.record.js';
import { TemplateRepository, type TemplateFieldValues } from './template.repository.js';
import { parseTimeValue } from './time-value.js';

/** Homebox clients send the zero UUID for "none". */
const NIL_UUID = '00000000-0000-0000-0000-000000000000';

const notFound = (id: string): NotFoundException =>
  new NotFoundException(`template ${id} not found`);

/** The stored values of a custom field as a body gives them, sent at `position`. */
function fieldValues(field: TemplateFieldInputDto, position: number): TemplateFieldValues {
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
 * `user.groupId`; writes that touch several rows run in one unit of work.
 */
@Injectable()
export class TemplatesService {
  constructor(
    private readonly templates: TemplateRepository,
    private readonly entities: EntitiesService,
    private readonly tags: TagsService,
    private readonly entityTypes: EntityTypesService,
    private readonly groups: GroupsService,
  ) {}

  /** The group's templates by name: case-insensitive, then by code point, then id. */
  async list(user: AuthUser): Promise<TemplateListItemDto[]> {
    return (await this.templates.findAll(user.groupId)).map(toTemplateListItem);
  }

  async get(user: AuthUser, id: string): Promise<TemplateSummaryDto> {
    return this.summary(user.groupId, id);
  }

  @Transactional()
  async create(user: AuthUser, dto: CreateTemplateDto): Promise<TemplateSummaryDto> {
    const tags = await this.tags.findOwnedMany(user, dto.defaultTagIds ?? [], 'defaultTagIds');
    const defaultLocationId = await this.checkLocation(user, dto.defaultLocationId);
    const record = await this.templates.insert({
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
    });
    for (const [position, field] of (dto.fields ?? []).entries()) {
      await this.templates.insertField(record.id, fieldValues(field, position));
    }
    return this.summary(user.groupId, record.id);
  }

  /** Homebox's PUT: see UpdateTemplateDto for what is kept and what is replaced. */
  @Transactional()
  async update(user: AuthUser, id: string, dto: UpdateTemplateDto): Promise<TemplateSummaryDto> {
    await this.templates.findOwned(user.groupId, id, { lock: true });
    const tags = await this.tags.findOwnedMany(user, dto.defaultTagIds ?? [], 'defaultTagIds');
    const defaultLocationId = await this.checkLocation(user, dto.defaultLocationId);
    const fields = dto.fields ?? [];
    const existing = await this.templates.findFields(id);
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

    // The update sets updated_at, so the template counts as changed even when only fields do.
    await this.templates.update(user.groupId, id, {
      ...givenDefaults(dto),
      ...replacedValues(
        dto,
        tags.map((tag) => tag.id),
        defaultLocationId,
      ),
    });
    await this.templates.deleteFields(
      id,
      existing.filter((field) => !listed.has(field.id)).map((field) => field.id),
    );
    for (const [position, field] of fields.entries()) {
      if (field.id) await this.templates.updateField(id, field.id, fieldValues(field, position));
      else await this.templates.insertField(id, fieldValues(field, position));
    }
    return this.summary(user.groupId, id);
  }

  /** Deletes a template with its fields; entity types using it as default lose their default. */
  async remove(user: AuthUser, id: string): Promise<void> {
    if (!(await this.templates.delete(user.groupId, id))) throw notFound(id);
  }

  /**
   * Creates an entity from a template (spec §4.9): what the body leaves out comes from the
   * template; insured, lifetime warranty, manufacturer, model number, warranty details and every
   * custom field with its values are copied. Entity, tags and fields are written in one unit of
   * work; the answer is the entity's stored view with its edges.
   */
  @Transactional()
  async createEntity(
    user: AuthUser,
    id: string,
    dto: CreateEntityFromTemplateDto,
  ): Promise<JsonText<EntityFromTemplateStoredDto>> {
    const template = await this.templates.findWithFields(user.groupId, id, false);
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
      : await this.tags.findExisting(user.groupId, template.defaultTagIds);
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
      ? await this.entities.findOwned(user, parentId, { field: 'parentId' })
      : null;

    const inserted = await this.entities.insert(user.groupId, {
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
      counter: BigInt(inserted.assetId),
    });
    if (name.length > 255) {
      throw ValidationFailedException.forField(
        'name',
        'name must be shorter than or equal to 255 characters once its placeholders are filled',
      );
    }
    if (name !== requestedName) await this.entities.rename(user.groupId, inserted.id, name);
    await this.entities.setTags(
      user.groupId,
      inserted.id,
      tags.map((tag) => tag.id),
    );
    await this.entities.insertFields(
      inserted.id,
      (template.fields ?? []).map((field, position) => ({
        type: field.type,
        name: field.name,
        description: field.description,
        // Entity fields show no time value, so a time travels as its RFC 3339 text too.
        textValue: field.timeValue ? field.timeValue.toISOString() : field.textValue,
        numberValue: field.numberValue,
        booleanValue: field.booleanValue,
        timeValue: field.timeValue,
        position,
      })),
    );
    // Written with `writeJson`: the asset ids of the stored views are JSON numbers of any size.
    return JsonText.of(await this.storedEntity(user, inserted.id, type, parent, tags));
  }

  /** The summary view of a template of the group, or 404. */
  private async summary(groupId: string, id: string): Promise<TemplateSummaryDto> {
    const record = await this.templates.findWithFields(groupId, id, true);
    if (!record) throw notFound(id);
    const tags = await this.tags.findExisting(groupId, record.defaultTagIds);
    return toTemplateSummary(record, tags);
  }

  /** The default location to store: null for none, else an entity of the group (422 otherwise). */
  private async checkLocation(
    user: AuthUser,
    locationId: string | null | undefined,
  ): Promise<string | null> {
    if (!locationId || locationId === NIL_UUID) return null;
    return (await this.entities.findOwned(user, locationId, { field: 'defaultLocationId' })).id;
  }

  /** The stored view of a new entity with the edges of spec §2.6. */
  private async storedEntity(
    user: AuthUser,
    id: string,
    type: EntityTypeRecord,
    parent: EntityRecord | null,
    tags: TagRecord[],
  ): Promise<EntityFromTemplateStoredDto> {
    // One after another: the queries share the unit of work's connection.
    const record = await this.entities.findOwned(user, id);
    const group = await this.groups.findStored(user.groupId);
    const location = parent ? await this.entities.nearestLocation(user.groupId, parent.id) : null;
    return toEntityFromTemplateStored(record, {
      attachments: [],
      children: [],
      entity_type: toEntityTypeStored(type),
      group: toGroupStored(group),
      location: location ? toEntityStored(location) : null,
      // A brand-new entity has no maintenance entries yet.
      maintenance_entries: [],
      parent: parent ? toEntityStored(parent) : null,
      tag: tags.map((tag) => toTagStored(tag)),
    });
  }
}
