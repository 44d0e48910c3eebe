import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { GroupsModule } from '../groups/groups.module.js';
import { PasswordSignInService } from './password-sign-in.service.js';
import { SessionsController } from './sessions.controller.js';
import { UserRepository } from './user.repository.js';
import { UsersService } from './users.service.js';

/** Users: their accounts, settings and passwords, and password sign-in sessions. */
@Module({
  imports: [AuthModule, GroupsModule],
  controllers: [SessionsController],
  providers: [UsersService, PasswordSignInService, UserRepository],
  exports: [UsersService, PasswordSignInService],
})
export class UsersModule {}
