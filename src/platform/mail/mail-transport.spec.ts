import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/configuration.js';
import { createMailTransport, isMailConfigured, type MailSettings } from './mail-transport.js';

const settings = (env: Record<string, string> = {}): MailSettings =>
  loadConfig({
    TROVE_MAILER_HOST: 'smtp.example.com',
    TROVE_MAILER_FROM: 'trove@example.com',
    ...env,
  }).mail;

/** What nodemailer's SMTP transport was given. */
const optionsOf = async (mail: MailSettings): Promise<Record<string, unknown>> =>
  ((await createMailTransport(mail)).transporter as unknown as { options: Record<string, unknown> })
    .options;

describe('mail settings', () => {
  it('default to port 587 with STARTTLS required and verified certificates', () => {
    const mail = loadConfig({}).mail;
    expect(mail).toEqual({
      host: '',
      port: 587,
      username: '',
      password: '',
      from: '',
      tls: 'starttls',
      tlsRejectUnauthorized: true,
    });
    expect(isMailConfigured(mail)).toBe(false);
  });

  it('count as configured with a host and a sender, credentials or not', () => {
    expect(isMailConfigured(settings())).toBe(true);
    expect(isMailConfigured(settings({ TROVE_MAILER_FROM: '' }))).toBe(false);
    expect(isMailConfigured(settings({ TROVE_MAILER_HOST: ' ' }))).toBe(false);
  });

  it('refuse an unknown TLS mode', () => {
    expect(() => loadConfig({ TROVE_MAILER_TLS: 'ssl' })).toThrow(/TROVE_MAILER_TLS: /);
  });
});

describe('createMailTransport', () => {
  it('requires STARTTLS by default and authenticates only with a user name', async () => {
    expect(await optionsOf(settings())).toMatchObject({
      host: 'smtp.example.com',
      port: 587,
      secure: false,
      requireTLS: true,
      ignoreTLS: false,
      tls: { rejectUnauthorized: true },
      auth: undefined,
    });
    expect(
      await optionsOf(
        settings({ TROVE_MAILER_USERNAME: 'trove', TROVE_MAILER_PASSWORD: 'secret' }),
      ),
    ).toMatchObject({ auth: { user: 'trove', pass: 'secret' } });
  });

  it('speaks TLS from the start with implicit, and never upgrades with none', async () => {
    expect(
      await optionsOf(settings({ TROVE_MAILER_TLS: 'implicit', TROVE_MAILER_PORT: '465' })),
    ).toMatchObject({ port: 465, secure: true, requireTLS: false, ignoreTLS: false });
    expect(
      await optionsOf(
        settings({ TROVE_MAILER_TLS: 'none', TROVE_MAILER_TLS_REJECT_UNAUTHORIZED: 'false' }),
      ),
    ).toMatchObject({
      secure: false,
      requireTLS: false,
      ignoreTLS: true,
      tls: { rejectUnauthorized: false },
    });
  });
});
