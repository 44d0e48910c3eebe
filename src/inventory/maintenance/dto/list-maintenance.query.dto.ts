import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional } from 'class-validator';

export const MAINTENANCE_STATUSES = ['scheduled', 'completed', 'both'] as const;
export type MaintenanceStatus = (typeof MAINTENANCE_STATUSES)[number];

/**
 * `scheduled` and `completed` as they are; anything else (absent, `both`, empty, repeated, or the
 * `undefined` Homebox's web client sends) lists both.
 */
const toStatus = ({ value }: { value: unknown }): MaintenanceStatus =>
  value === 'scheduled' || value === 'completed' ? value : 'both';

const STATUS_PROPERTY = {
  type: String,
  example: 'scheduled',
  default: 'both',
} as const;

/** The query of GET /entities/{id}/maintenance. */
export class ListEntityMaintenanceQueryDto {
  @ApiPropertyOptional({
    ...STATUS_PROPERTY,
    description:
      'scheduled: no completion date, or one in the future; completed: a completion date not ' +
      'in the future; any other value or none (such as both): all',
  })
  @Transform(toStatus)
  @IsOptional()
  @IsIn(MAINTENANCE_STATUSES)
  status?: MaintenanceStatus;
}

/** The query of GET /maintenance. */
export class ListMaintenanceQueryDto {
  @ApiPropertyOptional({
    ...STATUS_PROPERTY,
    description:
      'scheduled: no completion date; completed: a completion date; any other value or none ' +
      '(such as both): all',
  })
  @Transform(toStatus)
  @IsOptional()
  @IsIn(MAINTENANCE_STATUSES)
  status?: MaintenanceStatus;
}
