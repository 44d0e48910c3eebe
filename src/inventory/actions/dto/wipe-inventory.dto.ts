import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';

/** What a wipe takes along besides the entities (Homebox's options; all default to false). */
export class WipeInventoryDto {
  @ApiPropertyOptional({
    default: false,
    description: 'Also delete every tag of the group (each counted in `completed`)',
  })
  @IsOptional()
  @IsBoolean()
  wipeTags?: boolean;

  @ApiPropertyOptional({
    default: false,
    description: 'Accepted for Homebox clients; locations are entities and are deleted in any case',
  })
  @IsOptional()
  @IsBoolean()
  wipeLocations?: boolean;

  @ApiPropertyOptional({
    default: false,
    description:
      'Count the maintenance entries in `completed` (they are deleted with their entities in any case)',
  })
  @IsOptional()
  @IsBoolean()
  wipeMaintenance?: boolean;
}
