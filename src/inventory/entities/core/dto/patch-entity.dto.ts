import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsNumber, IsOptional, IsUUID, Min, ValidateIf } from 'class-validator';

/** Homebox's PATCH: only these four; absent or null leaves a value as it is, `[]` clears the tags. */
export class PatchEntityDto {
  @ApiPropertyOptional({ minimum: 0 })
  @ValidateIf((dto: PatchEntityDto) => dto.quantity !== null && dto.quantity !== undefined)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  quantity?: number | null;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'A new parent; a parent cannot be cleared here (use PUT)',
  })
  @ValidateIf((dto: PatchEntityDto) => dto.parentId !== null && dto.parentId !== undefined)
  @IsUUID()
  parentId?: string | null;

  @ApiPropertyOptional({ format: 'uuid' })
  @ValidateIf((dto: PatchEntityDto) => dto.entityTypeId !== null && dto.entityTypeId !== undefined)
  @IsUUID()
  entityTypeId?: string | null;

  @ApiPropertyOptional({ type: [String], format: 'uuid', description: '`[]` removes every tag' })
  @IsOptional()
  @IsArray()
  @IsUUID('all', { each: true })
  tagIds?: string[] | null;
}
