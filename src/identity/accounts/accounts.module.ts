import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { GroupsModule } from '../groups/groups.module.js';
import { UsersModule } from '../users/users.module.js';
import { AccountsService } from './accounts.service.js';
import { OutsideUsersService } from './outside-users.service.js';
import { GroupsController } from './groups.controller.js';

/**
 * Registration with a first group, new groups with what they start with, and a member's default
 * group as memberships come and go; users coming in from the identity provider and what their
 * provider groups grant; the routes of the caller's account and of their groups.
 */
@Module({
  imports: [AuthModule, UsersModule, GroupsModule],
  controllers: [GroupsController],
  providers: [AccountsService, OutsideUsersService],
  exports: [AccountsService, OutsideUsersService],
})
export class AccountsModule {}
