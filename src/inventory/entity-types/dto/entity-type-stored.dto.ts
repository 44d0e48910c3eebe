import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Relations of a stored entity type, present only when the operation loaded them. */
export class EntityTypeStoredEdgesDto {
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true })
  default_template?: Record<string, unknown> | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  group?: Record<string, unknown>;
}

/** An entity type, stored view (spec §2.6): snake_case, nested under `edges` of other views. */
export class EntityTypeStoredDto {
  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty()
  description: string;

  @ApiProperty()
  icon: string;

  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  is_location: boolean;

  @ApiProperty()
  name: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;

  @ApiProperty({ type: EntityTypeStoredEdgesDto })
  edges: EntityTypeStoredEdgesDto;
}
