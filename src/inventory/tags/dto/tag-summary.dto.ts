import { ApiProperty } from '@nestjs/swagger';

/** A tag as lists and nested views show it (spec §2.5, summary view). */
export class TagSummaryDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'Electronics' })
  name: string;

  @ApiProperty({ example: '' })
  description: string;

  @ApiProperty({ example: '#3b82f6' })
  color: string;

  @ApiProperty({ example: 'mdi-chip' })
  icon: string;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The parent tag; null for a root tag',
  })
  parentId: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}
