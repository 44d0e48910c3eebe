import { ApiProperty } from '@nestjs/swagger';

/** The entity stored view (spec §2.6): snake_case, the relations the operation loaded under `edges`. */
export class EntityStoredDto {
  @ApiProperty()
  archived: boolean;

  /** Written as a JSON number of any size (`writeJson`), so no id is rounded. */
  @ApiProperty({ type: 'integer' })
  asset_id: bigint;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty()
  description: string;

  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  import_ref: string;

  @ApiProperty()
  insured: boolean;

  @ApiProperty()
  lifetime_warranty: boolean;

  @ApiProperty()
  manufacturer: string;

  @ApiProperty()
  model_number: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  notes: string;

  @ApiProperty({ description: 'YYYY-MM-DD or ""' })
  purchase_date: string;

  @ApiProperty()
  purchase_from: string;

  @ApiProperty()
  purchase_price: number;

  @ApiProperty()
  quantity: number;

  @ApiProperty()
  serial_number: string;

  @ApiProperty({ description: 'YYYY-MM-DD or ""' })
  sold_date: string;

  @ApiProperty()
  sold_notes: string;

  @ApiProperty()
  sold_price: number;

  @ApiProperty()
  sold_to: string;

  @ApiProperty()
  sync_child_entity_locations: boolean;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;

  @ApiProperty()
  warranty_details: string;

  @ApiProperty({ description: 'YYYY-MM-DD or ""' })
  warranty_expires: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'Stored views of the loaded relations: attachments, children, entity_type, group, location, maintenance_entries, parent, tag',
  })
  edges: Record<string, unknown>;
}
