import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { nodemailerModule } from '../runtime/on-first-use.js';
import type { TroveConfig } from '../config/configuration.js';

/** The SMTP settings a transport is built from (`TROVE_MAILER_*`). */
export type MailSettings = TroveConfig['mail'];

/** Seconds to wait for the SMTP server's greeting and for each command. */
const TIMEOUT_MS = 30_000;

/** Mail can be sent: a server and a sender are set (a relay may need no credentials). */
export const isMailConfigured = (settings: MailSettings): boolean =>
  settings.host !== '' && settings.from !== '';

/**
 * A nodemailer SMTP transport for these settings: `starttls` upgrades the connection and refuses
 * to send without TLS, `implicit` speaks TLS from the first byte, `none` never upgrades. It
 * authenticates only when a user name is set.
 */
export async function createMailTransport(
  settings: MailSettings,
): Promise<Transporter<SMTPTransport.SentMessageInfo, SMTPTransport.Options>> {
  const nodemailer = await nodemailerModule();
  return nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.tls === 'implicit',
    requireTLS: settings.tls === 'starttls',
    ignoreTLS: settings.tls === 'none',
    tls: { rejectUnauthorized: settings.tlsRejectUnauthorized },
    auth:
      settings.username !== '' ? { user: settings.username, pass: settings.password } : undefined,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
}
