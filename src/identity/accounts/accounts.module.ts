import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { EntitiesModule } from '../../inventory/entities/core/entities.module.js';
import { EntityTypesModule } from '../../inventory/entity-types/entity-types.module.js';
import { GroupsModule } from '../groups/groups.module.js';
import { TagsModule } from '../../inventory/tags/tags.module.js';
import { UsersModule } from '../users/users.module.js';
import { AccountsService } from './accounts.service.js';
import { GroupSeeder } from './group-seed.js';
import { GroupsController } from './groups.controller.js';
import { UsersController } from './users.controller.js';

/**
 * Registration with a first group, new groups with what they start with, and a member's default
 * group as memberships come and go; the routes of the caller's account and of their groups.
 */
@Module({
  imports: [AuthModule, UsersModule, GroupsModule, EntityTypesModule, EntitiesModule, TagsModule],
  controllers: [UsersController, GroupsController],
  providers: [AccountsService, GroupSeeder],
  exports: [AccountsService],
})
export class AccountsModule {}
