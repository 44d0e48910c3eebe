import { ApiProperty, OmitType } from '@nestjs/swagger';
import { AttachmentStoredDto } from '../../entities/views/attachments/attachment.dto.js';
import { EntityStoredDto } from '../../entities/views/dto/entity-stored.dto.js';
import { EntityTypeStoredDto } from '../../entity-types/dto/entity-type-stored.dto.js';
import { MaintenanceEntryStoredDto } from '../../maintenance/dto/maintenance-entry-stored.dto.js';
import { TagStoredDto } from '../../tags/dto/tag-stored.dto.js';

/** A group, stored view (spec §2.7), without relations. */
export class GroupStoredDto {
  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Always empty here' })
  edges: Record<string, unknown>;
}

/** The relations of an entity just created from a template, each as a stored view. */
export class EntityFromTemplateEdgesDto {
  @ApiProperty({ type: [AttachmentStoredDto], description: 'Always empty: the entity is new' })
  attachments: AttachmentStoredDto[];

  @ApiProperty({ type: [EntityStoredDto], description: 'Always empty: the entity is new' })
  children: EntityStoredDto[];

  @ApiProperty({ type: EntityTypeStoredDto })
  entity_type: EntityTypeStoredDto;

  @ApiProperty({ type: GroupStoredDto })
  group: GroupStoredDto;

  @ApiProperty({
    type: EntityStoredDto,
    nullable: true,
    description: 'The nearest ancestor (the parent included) whose type is a location',
  })
  location: EntityStoredDto | null;

  @ApiProperty({ type: [MaintenanceEntryStoredDto] })
  maintenance_entries: MaintenanceEntryStoredDto[];

  @ApiProperty({ type: EntityStoredDto, nullable: true })
  parent: EntityStoredDto | null;

  @ApiProperty({ type: [TagStoredDto] })
  tag: TagStoredDto[];
}

/** The answer of `POST /templates/{id}/create-item` (spec §4.9): the entity's stored view. */
export class EntityFromTemplateStoredDto extends OmitType(EntityStoredDto, ['edges'] as const) {
  @ApiProperty({ type: EntityFromTemplateEdgesDto })
  edges: EntityFromTemplateEdgesDto;
}
