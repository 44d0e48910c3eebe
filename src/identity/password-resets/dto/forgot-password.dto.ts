import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, MaxLength } from 'class-validator';
import { Trim } from '../../../platform/http/validation/trim.decorator.js';

export class ForgotPasswordDto {
  @ApiProperty({
    maxLength: 255,
    example: 'ada@example.com',
    description: 'The account’s e-mail address, compared case-insensitively',
  })
  @Trim()
  @IsEmail({}, { message: 'email must be an e-mail address' })
  @MaxLength(255)
  email: string;
}
