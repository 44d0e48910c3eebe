import type {
  TemplateFieldStoredDto,
  TemplateFieldStoredEdgesDto,
  TemplateStoredDto,
  TemplateStoredEdgesDto,
} from './dto/template-stored.dto.js';
import type {
  TemplateFieldDto,
  TemplateListItemDto,
  TemplateReferenceDto,
  TemplateSummaryDto,
} from './dto/template-summary.dto.js';
import type { TemplateFieldRecord } from './template-field.record.js';
import type { TemplateRecord } from './template.record.js';

const time = (value: Date | null): string => value?.toISOString() ?? '';

/** A template as `GET /templates` lists it. */
export const toTemplateListItem = (record: TemplateRecord): TemplateListItemDto => ({
  id: record.id,
  name: record.name,
  description: record.description,
  createdAt: record.createdAt.toISOString(),
  updatedAt: record.updatedAt.toISOString(),
});

/** A template field, summary view (spec §2.4): `timeValue` "" when unset. */
export const toTemplateField = (record: TemplateFieldRecord): TemplateFieldDto => ({
  booleanValue: record.booleanValue,
  id: record.id,
  name: record.name,
  numberValue: Number(record.numberValue),
  textValue: record.textValue,
  timeValue: time(record.timeValue),
  type: record.type,
});

/**
 * The summary view (spec §2.4). Expects `fields` loaded (in the order to show) and
 * `defaultLocation` loaded when the template has one; `defaultTags` are the template's tags that
 * still exist, in the order to show.
 */
export function toTemplateSummary(
  record: TemplateRecord,
  defaultTags: TemplateReferenceDto[],
): TemplateSummaryDto {
  if (!record.fields) throw new Error(`template ${record.id}: fields were not loaded`);
  if (record.defaultLocationId && !record.defaultLocation) {
    throw new Error(`template ${record.id}: defaultLocation was not loaded`);
  }
  const location = record.defaultLocation;
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    notes: record.notes,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
    defaultName: record.defaultName,
    defaultDescription: record.defaultDescription,
    defaultManufacturer: record.defaultManufacturer,
    defaultModelNumber: record.defaultModelNumber,
    defaultQuantity: record.defaultQuantity,
    defaultInsured: record.defaultInsured,
    defaultLifetimeWarranty: record.defaultLifetimeWarranty,
    defaultWarrantyDetails: record.defaultWarrantyDetails,
    defaultLocation:
      record.defaultLocationId && location ? { id: location.id, name: location.name } : null,
    defaultTags: defaultTags.map((tag) => ({ id: tag.id, name: tag.name })),
    includePurchaseFields: record.includePurchaseFields,
    includeSoldFields: record.includeSoldFields,
    includeWarrantyFields: record.includeWarrantyFields,
    fields: record.fields.map(toTemplateField),
  };
}

/** The stored view (spec §2.4), with the stored views of the relations the caller loaded. */
export const toTemplateStored = (
  record: TemplateRecord,
  edges: TemplateStoredEdgesDto = {},
): TemplateStoredDto => ({
  created_at: record.createdAt.toISOString(),
  default_description: record.defaultDescription,
  default_insured: record.defaultInsured,
  default_lifetime_warranty: record.defaultLifetimeWarranty,
  default_manufacturer: record.defaultManufacturer,
  default_model_number: record.defaultModelNumber,
  default_name: record.defaultName,
  default_quantity: record.defaultQuantity,
  default_tag_ids: [...record.defaultTagIds],
  default_warranty_details: record.defaultWarrantyDetails,
  description: record.description,
  id: record.id,
  include_purchase_fields: record.includePurchaseFields,
  include_sold_fields: record.includeSoldFields,
  include_warranty_fields: record.includeWarrantyFields,
  name: record.name,
  notes: record.notes,
  updated_at: record.updatedAt.toISOString(),
  edges: { ...edges },
});

/** A template field, stored view (spec §2.4), with the relations the caller loaded. */
export const toTemplateFieldStored = (
  record: TemplateFieldRecord,
  edges: TemplateFieldStoredEdgesDto = {},
): TemplateFieldStoredDto => ({
  id: record.id,
  name: record.name,
  description: record.description,
  boolean_value: record.booleanValue,
  number_value: Number(record.numberValue),
  text_value: record.textValue,
  time_value: time(record.timeValue),
  type: record.type,
  created_at: record.createdAt.toISOString(),
  updated_at: record.updatedAt.toISOString(),
  edges: { ...edges },
});
