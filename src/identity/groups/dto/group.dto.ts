import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { IfPresent } from '../../../platform/http/validation/if-present.decorator.js';

/** A group as clients see it. */
export class GroupDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: "Ada's Home" })
  name: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;

  @ApiProperty({ example: 'USD', description: 'ISO 4217 code, upper case' })
  currency: string;
}

export class CreateGroupDto {
  @ApiProperty({ minLength: 1, maxLength: 255 })
  @IsString()
  @Length(1, 255)
  name: string;
}

export class UpdateGroupDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 255, description: 'Omitted keeps the name' })
  @IfPresent()
  @IsString()
  @Length(1, 255)
  name?: string;

  @ApiPropertyOptional({
    example: 'EUR',
    description: 'A code from GET /api/v1/currencies; omitted keeps it',
  })
  @IfPresent()
  @IsString()
  currency?: string;
}
