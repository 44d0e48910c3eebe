import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { Trim } from '../../../platform/http/validation/trim.decorator.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../auth/passwords.service.js';

export class RegisterDto {
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'Ada Lovelace' })
  @IsString()
  @Length(1, 255)
  name: string;

  @ApiProperty({
    maxLength: 255,
    example: 'ada@example.com',
    description: 'Unique, compared case-insensitively',
  })
  @Trim()
  @IsEmail({}, { message: 'email must be an e-mail address' })
  @MaxLength(255)
  email: string;

  @ApiProperty({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH })
  @IsString()
  @Length(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH)
  password: string;

  @ApiPropertyOptional({
    description: 'An invitation token: join its group instead of creating one',
  })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  token?: string;
}
