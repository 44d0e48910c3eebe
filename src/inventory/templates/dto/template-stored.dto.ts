import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FIELD_TYPES, type FieldType } from '../../entities/core/field-type.js';

/** Makes decorator metadata say Object, so a property may name a class declared further down. */
type Later<T> = T;

/** The relations a stored template field may carry; each only when the operation loaded it. */
export class TemplateFieldStoredEdgesDto {
  @ApiPropertyOptional({ type: () => TemplateStoredDto })
  entity_template?: Later<TemplateStoredDto>;
}

/** A template field, stored view (spec §2.4). */
export class TemplateFieldStoredDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  description: string;

  @ApiProperty()
  boolean_value: boolean;

  @ApiProperty({ type: 'integer' })
  number_value: number;

  @ApiProperty()
  text_value: string;

  @ApiProperty({ description: 'RFC 3339, or "" when unset' })
  time_value: string;

  @ApiProperty({ enum: FIELD_TYPES })
  type: FieldType;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;

  @ApiProperty({ type: () => TemplateFieldStoredEdgesDto })
  edges: TemplateFieldStoredEdgesDto;
}

/** The relations a stored template may carry; each only when the operation loaded it. */
export class TemplateStoredEdgesDto {
  @ApiPropertyOptional({ type: () => [TemplateFieldStoredDto] })
  fields?: TemplateFieldStoredDto[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  group?: Record<string, unknown>;
}

/** A template, stored view (spec §2.4): snake_case, nested under `edges` of other views. */
export class TemplateStoredDto {
  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty()
  default_description: string;

  @ApiProperty()
  default_insured: boolean;

  @ApiProperty()
  default_lifetime_warranty: boolean;

  @ApiProperty()
  default_manufacturer: string;

  @ApiProperty()
  default_model_number: string;

  @ApiProperty({ description: 'May hold placeholders: {{date}}, {{time}}, {{counter}}' })
  default_name: string;

  @ApiProperty()
  default_quantity: number;

  @ApiProperty({ type: [String], format: 'uuid' })
  default_tag_ids: string[];

  @ApiProperty()
  default_warranty_details: string;

  @ApiProperty()
  description: string;

  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  include_purchase_fields: boolean;

  @ApiProperty()
  include_sold_fields: boolean;

  @ApiProperty()
  include_warranty_fields: boolean;

  @ApiProperty()
  name: string;

  @ApiProperty()
  notes: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;

  @ApiProperty({ type: () => TemplateStoredEdgesDto })
  edges: TemplateStoredEdgesDto;
}
