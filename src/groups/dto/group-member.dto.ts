import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { GROUP_ROLES, type GroupRole } from '../group-role.js';

export class GroupMemberDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  email: string;

  @ApiProperty({ enum: GROUP_ROLES })
  role: GroupRole;
}

export class UpdateMemberRoleDto {
  @ApiProperty({ enum: GROUP_ROLES })
  @IsIn(GROUP_ROLES)
  role: GroupRole;
}
