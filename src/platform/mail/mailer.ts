import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Transporter } from 'nodemailer';
import type { TroveConfig } from '../config/configuration.js';
import { createMailTransport, isMailConfigured, type MailSettings } from './mail-transport.js';
import { telemetry } from '../telemetry/telemetry.js';

/** One message: a plain-text part and an HTML part. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export class MailNotConfiguredError extends Error {
  constructor() {
    super('mail is not configured (TROVE_MAILER_HOST and TROVE_MAILER_FROM)');
    this.name = 'MailNotConfiguredError';
  }
}

/** Sends Trove's mail through the SMTP server of `TROVE_MAILER_*`, from `TROVE_MAILER_FROM`. */
@Injectable()
export class Mailer implements OnModuleDestroy {
  private transport?: Transporter;

  constructor(private readonly config: ConfigService<TroveConfig, true>) {}

  private get settings(): MailSettings {
    return this.config.get('mail', { infer: true });
  }

  /** Whether mail can be sent at all. */
  get configured(): boolean {
    return isMailConfigured(this.settings);
  }

  /** Sends a message; a refusal or an unreachable server throws. */
  async send(message: MailMessage): Promise<void> {
    if (!this.configured) throw new MailNotConfiguredError();
    await telemetry().inSpan('mail send', {}, async () => {
      this.transport ??= await createMailTransport(this.settings);
      await this.transport.sendMail({ from: this.settings.from, ...message });
    });
  }

  onModuleDestroy(): void {
    this.transport?.close();
  }
}
