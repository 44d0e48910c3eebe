import { Module } from '@nestjs/common';
import { AuthModule } from '../../identity/auth/auth.module.js';
import { GroupsModule } from '../../identity/groups/groups.module.js';
import { UsersModule } from '../../identity/users/users.module.js';
import { SignInPagesController } from './sign-in.controller.js';

/**
 * Trove's own pages beside the API: sign-in, registration, the signed-in page and sign-out, with
 * what every page shares (the `@Page()` controller, its error page, its headers, its stylesheet).
 */
@Module({
  imports: [AuthModule, UsersModule, GroupsModule],
  controllers: [SignInPagesController],
})
export class PagesModule {}
