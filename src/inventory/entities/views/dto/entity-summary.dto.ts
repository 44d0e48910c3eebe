import { ApiProperty } from '@nestjs/swagger';
import { AttachmentSummaryDto } from '../attachments/attachment.dto.js';
import { FIELD_TYPES, type FieldType } from '../../core/field-type.js';
import { EntityTypeSummaryDto } from '../../../entity-types/dto/entity-type-summary.dto.js';
import { TagSummaryDto } from '../../../tags/dto/tag-summary.dto.js';

/** A custom field on an entity (spec §2.4). */
export class EntityFieldDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ enum: FIELD_TYPES })
  type: FieldType;

  @ApiProperty()
  name: string;

  @ApiProperty()
  textValue: string;

  @ApiProperty({ type: 'integer' })
  numberValue: number;

  @ApiProperty()
  booleanValue: boolean;
}

/** The entity child-summary object (spec §2.1), used for parents, children and list items. */
export class EntityChildSummaryDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  archived: boolean;

  @ApiProperty({ example: '000-123', description: '"" when the entity has none' })
  assetId: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  description: string;

  @ApiProperty({ type: EntityTypeSummaryDto })
  entityType: EntityTypeSummaryDto;

  @ApiProperty({ type: String, nullable: true, format: 'uuid', description: 'The primary photo' })
  imageId: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'uuid',
    description: 'Thumbnail of the primary photo',
  })
  thumbnailId: string | null;

  @ApiProperty()
  insured: boolean;

  @ApiProperty({ description: 'For locations: total quantity of the items directly inside' })
  itemCount: number;

  @ApiProperty({
    type: () => EntityChildSummaryDto,
    nullable: true,
    description: 'Recursive, up to the top',
  })
  parent: EntityChildSummaryDto | null;

  @ApiProperty()
  purchasePrice: number;

  @ApiProperty()
  quantity: number;

  @ApiProperty({ description: 'YYYY-MM-DD or ""' })
  soldDate: string;

  @ApiProperty({ type: [TagSummaryDto] })
  tags: TagSummaryDto[];
}

/** The entity summary view (spec §2.1): what create, read and update answer. */
export class EntitySummaryDto extends EntityChildSummaryDto {
  @ApiProperty()
  lifetimeWarranty: boolean;

  @ApiProperty()
  manufacturer: string;

  @ApiProperty()
  modelNumber: string;

  @ApiProperty()
  serialNumber: string;

  @ApiProperty()
  notes: string;

  @ApiProperty({ description: 'YYYY-MM-DD or ""' })
  purchaseDate: string;

  @ApiProperty()
  purchaseFrom: string;

  @ApiProperty()
  soldNotes: string;

  @ApiProperty()
  soldPrice: number;

  @ApiProperty()
  soldTo: string;

  @ApiProperty()
  syncChildEntityLocations: boolean;

  @ApiProperty({ description: 'purchasePrice × quantity' })
  totalPrice: number;

  @ApiProperty()
  warrantyDetails: string;

  @ApiProperty({ description: 'YYYY-MM-DD or ""' })
  warrantyExpires: string;

  @ApiProperty({
    type: () => EntityChildSummaryDto,
    nullable: true,
    description: 'Nearest ancestor that is a location',
  })
  location: EntityChildSummaryDto | null;

  @ApiProperty({
    type: [EntityChildSummaryDto],
    description: 'For locations: the locations directly inside',
  })
  children: EntityChildSummaryDto[];

  @ApiProperty({ type: [EntityFieldDto] })
  fields: EntityFieldDto[];

  @ApiProperty({ type: [AttachmentSummaryDto] })
  attachments: AttachmentSummaryDto[];
}

/** A page of entities, as Homebox answers GET /entities. */
export class EntityPageDto {
  @ApiProperty({ description: 'The page asked for, or -1 when none was' })
  page: number;

  @ApiProperty({ description: 'The page size asked for, or -1 when none was' })
  pageSize: number;

  @ApiProperty({ description: 'Matches before paging' })
  total: number;

  @ApiProperty({ type: [EntityChildSummaryDto] })
  items: EntityChildSummaryDto[];

  @ApiProperty({ description: 'Sum of purchasePrice of the page’s entities that are not sold' })
  totalPrice: number;
}

export class EntityPathDto {
  @ApiProperty({ enum: ['location', 'item'] })
  type: 'location' | 'item';

  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;
}

export class EntityTreeNodeDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ enum: ['location', 'item'] })
  type: 'location' | 'item';

  @ApiProperty({ type: () => [EntityTreeNodeDto] })
  children: EntityTreeNodeDto[];
}

export class AssetPageDto {
  @ApiProperty()
  page: number;

  @ApiProperty()
  pageSize: number;

  @ApiProperty()
  total: number;

  @ApiProperty({ type: [EntityChildSummaryDto] })
  items: EntityChildSummaryDto[];
}
