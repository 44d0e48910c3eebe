import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Min } from 'class-validator';
import { BooleanQuery, toIntegerQuery } from '../../../../platform/http/validation/query-values.js';

export class EntityTreeQueryDto {
  @ApiPropertyOptional({ description: 'Include the items inside the locations' })
  @BooleanQuery()
  withItems?: boolean;
}

export class FieldValuesQueryDto {
  @ApiProperty({ description: 'Custom-field name' })
  @IsString()
  @Length(1, 255)
  field: string;
}

export class AssetPageQueryDto {
  @ApiPropertyOptional()
  @IsOptional()
  @Transform(toIntegerQuery)
  @IsInt()
  @Min(0)
  page?: number;

  @ApiPropertyOptional()
  @IsOptional()
  @Transform(toIntegerQuery)
  @IsInt()
  @Min(0)
  pageSize?: number;
}
