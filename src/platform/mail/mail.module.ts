import { Module } from '@nestjs/common';
import { Mailer } from './mailer.js';

/** Outgoing mail over SMTP (`Mailer`). */
@Module({
  providers: [Mailer],
  exports: [Mailer],
})
export class MailModule {}
