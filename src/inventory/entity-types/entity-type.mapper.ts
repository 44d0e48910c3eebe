import { isoTimestamp, jsonObject } from '../../platform/database/json.sql.js';
import type { TemplateRecord } from '../templates/template.record.js';
import type {
  EntityTypeStoredDto,
  EntityTypeStoredEdgesDto,
} from './dto/entity-type-stored.dto.js';
import type {
  EntityTypeDefaultTemplateDto,
  EntityTypeSummaryDto,
} from './dto/entity-type-summary.dto.js';
import type { EntityTypeRecord } from './entity-type.record.js';

const toDefaultTemplate = (template: TemplateRecord): EntityTypeDefaultTemplateDto => ({
  id: template.id,
  name: template.name,
  description: template.description,
  createdAt: template.createdAt.toISOString(),
  updatedAt: template.updatedAt.toISOString(),
});

/**
 * The summary view (spec §2.3). `defaultTemplate` must be loaded when the type has one; an
 * unset template is `defaultTemplateId: ""` and `defaultTemplate: null`.
 */
export function toEntityTypeSummary(record: EntityTypeRecord): EntityTypeSummaryDto {
  const templateId = record.defaultTemplateId;
  if (templateId && !record.defaultTemplate) {
    throw new Error(`entity type ${record.id}: defaultTemplate was not loaded`);
  }
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    icon: record.icon,
    isLocation: record.isLocation,
    defaultTemplateId: templateId ?? '',
    defaultTemplate:
      templateId && record.defaultTemplate ? toDefaultTemplate(record.defaultTemplate) : null,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  };
}

/**
 * `toEntityTypeSummary` written as SQL: the summary view of the type row `type`, whose default
 * template row is `template` (left joined), as JSON.
 */
export const entityTypeSummaryJson = (type: string, template: string): string =>
  jsonObject({
    id: `${type}.id`,
    name: `${type}.name`,
    description: `${type}.description`,
    icon: `${type}.icon`,
    isLocation: `${type}.is_location`,
    defaultTemplateId: `coalesce(${type}.default_template_id::text, '')`,
    defaultTemplate: `CASE WHEN ${template}.id IS NOT NULL THEN ${jsonObject({
      id: `${template}.id`,
      name: `${template}.name`,
      description: `${template}.description`,
      createdAt: isoTimestamp(`${template}.created_at`),
      updatedAt: isoTimestamp(`${template}.updated_at`),
    })} END`,
    createdAt: isoTimestamp(`${type}.created_at`),
    updatedAt: isoTimestamp(`${type}.updated_at`),
  });

/** The stored view (spec §2.6), with the stored views of the relations the caller loaded. */
export function toEntityTypeStored(
  record: EntityTypeRecord,
  edges: EntityTypeStoredEdgesDto = {},
): EntityTypeStoredDto {
  return {
    created_at: record.createdAt.toISOString(),
    description: record.description,
    icon: record.icon,
    id: record.id,
    is_location: record.isLocation,
    name: record.name,
    updated_at: record.updatedAt.toISOString(),
    edges: { ...edges },
  };
}
