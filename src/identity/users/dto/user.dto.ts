import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsString, Length, MaxLength } from 'class-validator';
import { IfPresent } from '../../../platform/http/validation/if-present.decorator.js';
import { Trim } from '../../../platform/http/validation/trim.decorator.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../auth/passwords.service.js';

export class UserDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  email: string;

  @ApiProperty()
  isSuperuser: boolean;

  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  defaultGroupId: string | null;

  @ApiProperty({ type: [String] })
  groupIds: string[];

  @ApiProperty({ type: String, nullable: true })
  oidcIssuer: string | null;

  @ApiProperty({ type: String, nullable: true })
  oidcSubject: string | null;
}

export class UserItemDto {
  @ApiProperty({ type: UserDto })
  item: UserDto;
}

export class UpdateSelfDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 255, description: 'Omitted keeps the name' })
  @IfPresent()
  @IsString()
  @Length(1, 255)
  name?: string;

  @ApiPropertyOptional({ maxLength: 255, description: 'Omitted keeps the e-mail address' })
  @IfPresent()
  @Trim()
  @IsEmail({}, { message: 'email must be an e-mail address' })
  @MaxLength(255)
  email?: string;
}

export class ChangePasswordDto {
  @ApiProperty({ description: 'The current password' })
  @IsString()
  @Length(1, PASSWORD_MAX_LENGTH)
  current: string;

  @ApiProperty({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH })
  @IsString()
  @Length(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH)
  new: string;
}

export class SettingsItemDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'Client settings: any JSON object; null before the first save',
  })
  item: Record<string, unknown> | null;
}
