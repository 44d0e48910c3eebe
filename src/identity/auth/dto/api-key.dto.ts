import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsString, Length, ValidateIf } from 'class-validator';

export class CreateApiKeyDto {
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'backup script' })
  @IsString()
  @Length(1, 255)
  name: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the key stops working; omitted means in 30 days, null means never',
  })
  @ValidateIf((dto: CreateApiKeyDto) => dto.expiresAt !== null && dto.expiresAt !== undefined)
  @IsISO8601({ strict: true })
  expiresAt?: string | null;
}

export class ApiKeyDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  userId: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  expiresAt: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastUsedAt: string | null;
}

export class ApiKeyCreatedDto extends ApiKeyDto {
  @ApiProperty({
    description: 'The key itself; shown only now. Send it as the Authorization header.',
  })
  token: string;
}
