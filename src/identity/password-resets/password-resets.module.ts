import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { MailModule } from '../../platform/mail/mail.module.js';
import { UsersModule } from '../users/users.module.js';
import { PasswordResetRepository } from './password-reset.repository.js';
import { PasswordResetsController } from './password-resets.controller.js';
import { PasswordResetsService } from './password-resets.service.js';

/** Password reset links: mailed on request, or made by the operator command. */
@Module({
  imports: [AuthModule, UsersModule, MailModule],
  controllers: [PasswordResetsController],
  providers: [PasswordResetsService, PasswordResetRepository],
  exports: [PasswordResetsService],
})
export class PasswordResetsModule {}
