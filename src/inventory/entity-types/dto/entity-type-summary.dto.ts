import { ApiProperty } from '@nestjs/swagger';

/** The default template as an entity type shows it. */
export class EntityTypeDefaultTemplateDto {
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

/** An entity type, summary view (spec §2.3); every field is always present. */
export class EntityTypeSummaryDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'Item' })
  name: string;

  @ApiProperty()
  description: string;

  @ApiProperty({ example: 'mdi-package-variant' })
  icon: string;

  @ApiProperty({ description: 'Entities of this type are locations or containers' })
  isLocation: boolean;

  @ApiProperty({ description: 'The default template’s id, or "" when there is none' })
  defaultTemplateId: string;

  @ApiProperty({ type: EntityTypeDefaultTemplateDto, nullable: true })
  defaultTemplate: EntityTypeDefaultTemplateDto | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}
