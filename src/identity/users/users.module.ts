import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { GroupsModule } from '../groups/groups.module.js';
import { PasswordSignInService } from './password-sign-in.service.js';
import { RegistrationService } from './registration.service.js';
import { SessionsController } from './sessions.controller.js';
import { UserRepository } from './user.repository.js';
import { UsersController } from './users.controller.js';
import { UsersService } from './users.service.js';

/**
 * Users and `/api/v1/users`: their accounts (registration, the caller's own account), settings and
 * passwords, password sign-in sessions, and a user joining a group.
 */
@Module({
  imports: [AuthModule, GroupsModule],
  controllers: [UsersController, SessionsController],
  providers: [UsersService, RegistrationService, PasswordSignInService, UserRepository],
  exports: [UsersService, RegistrationService, PasswordSignInService],
})
export class UsersModule {}
