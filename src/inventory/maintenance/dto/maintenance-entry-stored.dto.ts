import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EntityStoredDto } from '../../entities/views/dto/entity-stored.dto.js';

/** The relations a stored maintenance entry may carry; each only when the operation loaded it. */
export class MaintenanceEntryStoredEdgesDto {
  @ApiPropertyOptional({ type: () => EntityStoredDto })
  entity?: EntityStoredDto;
}

/**
 * A maintenance entry as stored (spec §2.6, stored view): snake_case, `date` being the
 * completion date (`completedDate` of requests).
 */
export class MaintenanceEntryStoredDto {
  @ApiProperty()
  cost: number;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ description: 'Completion date: YYYY-MM-DD or ""' })
  date: string;

  @ApiProperty()
  description: string;

  @ApiProperty({ format: 'uuid' })
  entity_id: string;

  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ description: 'YYYY-MM-DD or ""' })
  scheduled_date: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;

  @ApiProperty({ type: () => MaintenanceEntryStoredEdgesDto })
  edges: MaintenanceEntryStoredEdgesDto;
}
