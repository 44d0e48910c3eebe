import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsISO8601, IsOptional, Max, Min } from 'class-validator';
import { GroupDto } from './group.dto.js';

export const INVITATION_ROLES = ['user', 'viewer'] as const;
export type InvitationRole = (typeof INVITATION_ROLES)[number];

export class CreateInvitationDto {
  @ApiProperty({ minimum: 1, maximum: 100, description: 'How many people may join with it' })
  @IsInt()
  @Min(1)
  @Max(100)
  uses: number;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'RFC 3339; defaults to 24 hours from now',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  expiresAt?: string;

  @ApiPropertyOptional({
    enum: INVITATION_ROLES,
    default: 'user',
    description: 'Role of those who join',
  })
  @IsOptional()
  @IsIn(INVITATION_ROLES)
  role?: InvitationRole;
}

/** The created invitation (spec §2.7): the token is shown only here. */
export class GroupInvitationCreatedDto {
  @ApiProperty({ format: 'date-time' })
  expiresAt: string;

  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ description: 'The secret to register or join with; shown only now' })
  token: string;

  @ApiProperty()
  uses: number;
}

export class GroupInvitationDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'date-time' })
  expiresAt: string;

  @ApiProperty()
  uses: number;

  @ApiProperty({ enum: INVITATION_ROLES })
  role: InvitationRole;

  @ApiProperty({ type: GroupDto })
  group: GroupDto;
}

export class JoinedGroupDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;
}
