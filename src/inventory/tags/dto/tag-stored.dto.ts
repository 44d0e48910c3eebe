import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Makes decorator metadata say Object, so a property may name a class declared further down. */
type Later<T> = T;

/** The relations a stored tag may carry; each is present only when the operation loaded it. */
export class TagStoredEdgesDto {
  @ApiPropertyOptional({ type: () => [TagStoredDto] })
  children?: TagStoredDto[];

  @ApiPropertyOptional({ type: () => TagStoredDto })
  parent?: Later<TagStoredDto>;

  @ApiPropertyOptional({ type: 'array', items: { type: 'object' } })
  entities?: Record<string, unknown>[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  group?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'array', items: { type: 'object' } })
  users?: Record<string, unknown>[];
}

/** A tag as stored (spec §2.5, stored view): snake_case, nested under `edges` of create responses. */
export class TagStoredDto {
  @ApiProperty()
  color: string;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty()
  description: string;

  @ApiProperty()
  icon: string;

  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;

  @ApiProperty({ type: () => TagStoredEdgesDto })
  edges: TagStoredEdgesDto;
}
