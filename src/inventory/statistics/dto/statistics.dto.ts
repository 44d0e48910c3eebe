import { ApiProperty } from '@nestjs/swagger';

/** A group's totals (Homebox `repo.GroupStatistics`). */
export class GroupStatisticsDto {
  @ApiProperty({ example: 2, description: 'Members of the group' })
  totalUsers: number;

  @ApiProperty({ example: 42, description: 'Non-archived entities that are not locations' })
  totalItems: number;

  @ApiProperty({ example: 7, description: 'Entities of a location type' })
  totalLocations: number;

  @ApiProperty({ example: 12, description: 'Tags of the group' })
  totalTags: number;

  @ApiProperty({
    example: 1234.5,
    description: 'Σ purchase price × quantity over non-archived items',
  })
  totalItemPrice: number;

  @ApiProperty({
    example: 3,
    description: 'Non-archived items with a lifetime warranty or one expiring after now',
  })
  totalWithWarranty: number;
}

/** One item created within the range (Homebox `repo.ValueOverTimeEntry`). */
export class ValueOverTimeEntryDto {
  @ApiProperty({ format: 'date-time', description: 'When the item was created' })
  date: string;

  @ApiProperty({ example: 99.9, description: 'Its purchase price' })
  value: number;

  @ApiProperty({ example: '', description: 'Always empty, as in Homebox' })
  name: string;
}

/** Purchase prices over a range of dates (Homebox `repo.ValueOverTime`). */
export class ValueOverTimeDto {
  @ApiProperty({
    example: 800,
    description: 'Σ purchase price of non-archived items created before `start`',
  })
  valueAtStart: number;

  @ApiProperty({
    example: 1000,
    description: 'Σ purchase price of non-archived items created before `end`',
  })
  valueAtEnd: number;

  @ApiProperty({ format: 'date-time' })
  start: string;

  @ApiProperty({ format: 'date-time' })
  end: string;

  @ApiProperty({
    type: [ValueOverTimeEntryDto],
    description: 'One per item created within the range, oldest first',
  })
  entries: ValueOverTimeEntryDto[];
}

/** A location's or tag's purchase-price total (Homebox `repo.TotalsByOrganizer`). */
export class TotalsByOrganizerDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'Garage' })
  name: string;

  @ApiProperty({ example: 250 })
  total: number;
}
