import { ApiProperty } from '@nestjs/swagger';

/** A group of the instance, as an instance administrator sees it. */
export class AdminGroupDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: 'integer', description: 'How many members it has' })
  members: number;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class AdminGroupPageDto {
  @ApiProperty({ type: 'integer', description: 'The page, from 1' })
  page: number;

  @ApiProperty({ type: 'integer' })
  pageSize: number;

  @ApiProperty({ type: 'integer', description: 'Matches before paging' })
  total: number;

  @ApiProperty({ type: [AdminGroupDto] })
  items: AdminGroupDto[];
}
