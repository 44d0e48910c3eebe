import { ApiProperty } from '@nestjs/swagger';
import { FIELD_TYPES, type FieldType } from '../../entities/core/field-type.js';

/** A template in the list: `GET /templates`. */
export class TemplateListItemDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  description: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

/** A custom field of a template (spec §2.4): every value as stored, whatever the type. */
export class TemplateFieldDto {
  @ApiProperty()
  booleanValue: boolean;

  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: 'integer' })
  numberValue: number;

  @ApiProperty()
  textValue: string;

  @ApiProperty({ example: '2026-01-31T09:30:00.000Z', description: 'RFC 3339, or "" when unset' })
  timeValue: string;

  @ApiProperty({ enum: FIELD_TYPES })
  type: FieldType;
}

/** An id with a name: the default location and default tags of a template. */
export class TemplateReferenceDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;
}

/** A template, summary view (spec §2.4, read by `GET /templates/{id}`). */
export class TemplateSummaryDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  description: string;

  @ApiProperty()
  notes: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;

  @ApiProperty({ description: 'May hold placeholders: {{date}}, {{time}}, {{counter}}' })
  defaultName: string;

  @ApiProperty()
  defaultDescription: string;

  @ApiProperty()
  defaultManufacturer: string;

  @ApiProperty()
  defaultModelNumber: string;

  @ApiProperty()
  defaultQuantity: number;

  @ApiProperty()
  defaultInsured: boolean;

  @ApiProperty()
  defaultLifetimeWarranty: boolean;

  @ApiProperty()
  defaultWarrantyDetails: string;

  @ApiProperty({ type: TemplateReferenceDto, nullable: true })
  defaultLocation: TemplateReferenceDto | null;

  @ApiProperty({
    type: [TemplateReferenceDto],
    description: 'In the order stored; tags deleted since are left out',
  })
  defaultTags: TemplateReferenceDto[];

  @ApiProperty({ description: 'A hint for clients only' })
  includePurchaseFields: boolean;

  @ApiProperty({ description: 'A hint for clients only' })
  includeSoldFields: boolean;

  @ApiProperty({ description: 'A hint for clients only' })
  includeWarrantyFields: boolean;

  @ApiProperty({ type: [TemplateFieldDto], description: 'In the order they were added' })
  fields: TemplateFieldDto[];
}
