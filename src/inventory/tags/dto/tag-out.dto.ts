import { ApiProperty } from '@nestjs/swagger';
import { TagSummaryDto } from './tag-summary.dto.js';

/** One tag with its parent and its direct children (Homebox's TagOut). */
export class TagOutDto extends TagSummaryDto {
  @ApiProperty({ type: TagSummaryDto, nullable: true, description: 'null for a root tag' })
  parent: TagSummaryDto | null;

  @ApiProperty({ type: [TagSummaryDto], description: 'Direct children, sorted by name' })
  children: TagSummaryDto[];
}
