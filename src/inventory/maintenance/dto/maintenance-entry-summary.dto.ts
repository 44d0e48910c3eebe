import { ApiProperty } from '@nestjs/swagger';

/** A maintenance entry (Homebox's MaintenanceEntry): every field a string. */
export class MaintenanceEntrySummaryDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ description: 'When the work was done: YYYY-MM-DD, or "" when not done' })
  completedDate: string;

  @ApiProperty({ description: 'When the work is due: YYYY-MM-DD, or "" when not scheduled' })
  scheduledDate: string;

  @ApiProperty({ example: 'Replace the filter' })
  name: string;

  @ApiProperty({ example: '' })
  description: string;

  @ApiProperty({ example: '12.5', description: 'A decimal without trailing zeros' })
  cost: string;
}

/** A maintenance entry with the entity it belongs to (Homebox's MaintenanceEntryWithDetails). */
export class MaintenanceEntryWithDetailsDto extends MaintenanceEntrySummaryDto {
  @ApiProperty({ description: 'Name of the entity' })
  itemName: string;

  @ApiProperty({ format: 'uuid', description: 'Id of the entity (capital ID, as Homebox)' })
  itemID: string;
}
