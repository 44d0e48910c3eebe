import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional } from 'class-validator';

export const MAINTENANCE_STATUSES = ['scheduled', 'completed', 'both'] as const;
export type MaintenanceStatus = (typeof MAINTENANCE_STATUSES)[number];

/** The query of GET /entities/{id}/maintenance: `status` defaults to both. */
export class ListEntityMaintenanceQueryDto {
  @ApiPropertyOptional({
    enum: MAINTENANCE_STATUSES,
    enumName: 'MaintenanceStatus',
    default: 'both',
    description:
      'scheduled: no completion date, or one in the future; completed: a completion date not in the future',
  })
  @Transform(({ value }: { value: unknown }) => (value === '' ? undefined : value))
  @IsOptional()
  @IsIn(MAINTENANCE_STATUSES)
  status?: MaintenanceStatus;
}

/** The query of GET /maintenance: `status` is required. */
export class ListMaintenanceQueryDto {
  @ApiProperty({
    enum: MAINTENANCE_STATUSES,
    enumName: 'MaintenanceStatus',
    description: 'scheduled: no completion date; completed: a completion date; both: all',
  })
  @IsIn(MAINTENANCE_STATUSES)
  status: MaintenanceStatus;
}
