import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Min } from 'class-validator';
import { BooleanQuery } from '../../common/validation/query-values.js';

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

const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;

export class AssetPageQueryDto {
  @ApiPropertyOptional()
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  page?: number;

  @ApiPropertyOptional()
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  pageSize?: number;
}
