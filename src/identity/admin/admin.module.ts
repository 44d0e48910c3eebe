import { Module } from '@nestjs/common';
import { GroupsModule } from '../groups/groups.module.js';
import { UsersModule } from '../users/users.module.js';
import { AdminController } from './admin.controller.js';
import { AdminService } from './admin.service.js';
import { InstanceAdminGuard } from './instance-admin.guard.js';

/**
 * Instance administration: the instance administrators (TROVE_ADMIN_EMAILS, or a provider group
 * mapped to `admin`) see every user and group, disable and enable accounts, and see how people
 * get in.
 */
@Module({
  imports: [UsersModule, GroupsModule],
  controllers: [AdminController],
  providers: [AdminService, InstanceAdminGuard],
  exports: [AdminService, InstanceAdminGuard],
})
export class AdminModule {}
