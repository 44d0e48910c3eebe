import { Module, forwardRef } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { GroupsModule } from '../groups/groups.module.js';
import { PasswordSignInService } from './password-sign-in.service.js';
import { SessionsController } from './sessions.controller.js';
import { UserRepository } from './user.repository.js';
import { UsersController } from './users.controller.js';
import { UsersService } from './users.service.js';

/** Registration, sign-in sessions, the caller's account, settings and password. */
@Module({
  imports: [AuthModule, forwardRef(() => GroupsModule)],
  controllers: [UsersController, SessionsController],
  providers: [UsersService, PasswordSignInService, UserRepository],
  exports: [UsersService, PasswordSignInService],
})
export class UsersModule {}
