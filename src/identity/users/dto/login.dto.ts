import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional, IsString, Length } from 'class-validator';

export class LoginDto {
  @ApiProperty({ description: 'The e-mail address', example: 'ada@example.com' })
  @IsString()
  @Length(1, 255)
  username: string;

  @ApiProperty()
  @IsString()
  @Length(1, 1024)
  password: string;

  @ApiPropertyOptional({ description: 'A 28-day session instead of 7 days' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) =>
    value === 'true' || value === 'on' ? true : value === 'false' || value === '' ? false : value,
  )
  @IsBoolean()
  stayLoggedIn?: boolean;
}

export class LoginResponseDto {
  @ApiProperty({
    description: '"Bearer " and the session token: send it as the Authorization header',
  })
  token: string;

  @ApiProperty({ description: 'Token that only downloads accept, as ?access_token=' })
  attachmentToken: string;

  @ApiProperty({ format: 'date-time' })
  expiresAt: string;
}

export class RefreshResponseDto {
  @ApiProperty({ description: 'The new session token (without the "Bearer " prefix)' })
  raw: string;

  @ApiProperty()
  attachmentToken: string;

  @ApiProperty({ format: 'date-time' })
  expiresAt: string;
}
