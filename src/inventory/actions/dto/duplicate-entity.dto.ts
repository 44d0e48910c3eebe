import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';

export class DuplicateEntityDto {
  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  copyMaintenance?: boolean;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  copyAttachments?: boolean;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  copyCustomFields?: boolean;

  @ApiPropertyOptional({ default: 'Copy of ', maxLength: 100 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  copyPrefix?: string;
}
