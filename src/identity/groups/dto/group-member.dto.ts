import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { GROUP_ROLES, type GroupRole } from '../../auth/group-role.js';

export class GroupMemberDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  email: string;

  @ApiProperty({ enum: GROUP_ROLES })
  role: GroupRole;

  @ApiProperty({
    description:
      'The account is disabled (by the identity provider, through SCIM): it cannot sign in and ' +
      'its credentials are refused; what it changed stays attributed to it.',
  })
  disabled: boolean;
}

export class UpdateMemberRoleDto {
  @ApiProperty({ enum: GROUP_ROLES })
  @IsIn(GROUP_ROLES)
  role: GroupRole;
}
