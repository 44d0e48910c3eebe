import { expect } from 'vitest';
import type { SmtpStandIn, ReceivedMail } from '../support/smtp-stand-in.js';
import type { TestApp } from '../support/test-app.js';

export const RESET_MAIL_JOB = 'users.password-reset-mail';
export const PUBLIC_BASE = 'https://trove.example.com';
export const MAIL_FROM = 'Trove <trove@example.com>';
export const INVALID_LINK = { error: 'password reset link is invalid or has expired' };

/** Configuration of an app that mails through the stand-in, with a public hostname. */
export const mailEnv = (smtp: SmtpStandIn): Record<string, string> => ({
  TROVE_MAILER_HOST: '127.0.0.1',
  TROVE_MAILER_PORT: String(smtp.port),
  TROVE_MAILER_FROM: MAIL_FROM,
  TROVE_MAILER_TLS: 'none',
  TROVE_OPTIONS_HOSTNAME: PUBLIC_BASE,
});

/** The reset-mail jobs queued so far, oldest first, with their state. */
export const resetMailJobs = (
  trove: TestApp,
): Promise<{ state: string; data: Record<string, unknown> }[]> =>
  trove.query(`SELECT state, data FROM pgboss.job WHERE name = $1 ORDER BY created_on, id`, [
    RESET_MAIL_JOB,
  ]);

/** Waits until every queued reset-mail job has finished (its mail, if any, is delivered). */
export async function settleResetMails(trove: TestApp): Promise<void> {
  await expect
    .poll(
      async () =>
        (await resetMailJobs(trove)).filter((job) => !['completed', 'failed'].includes(job.state))
          .length,
      { timeout: 20_000, interval: 200 },
    )
    .toBe(0);
}

/** The reset link of a mail; both parts carry the same one. */
export function linkIn(mail: ReceivedMail): string {
  const match = /https:\/\/trove\.example\.com\/reset-password\?token=[\w-]+/.exec(mail.text);
  expect(match, mail.text).not.toBeNull();
  const link = match![0];
  expect(mail.html).toContain(`<a href="${link}">${link}</a>`);
  return link;
}

export const tokenOf = (link: string): string => new URL(link).searchParams.get('token')!;

/** Asks for a reset of `email` and returns the token of the one new mail it gets. */
export async function requestToken(
  trove: TestApp,
  smtp: SmtpStandIn,
  email: string,
): Promise<string> {
  const before = smtp.to(email).length;
  await trove.http.post('/api/v1/users/forgot-password').send({ email }).expect(204);
  await settleResetMails(trove);
  const mails = smtp.to(email);
  expect(mails).toHaveLength(before + 1);
  return tokenOf(linkIn(mails[mails.length - 1]));
}

export const passwordHashOf = async (trove: TestApp, userId: string): Promise<string | null> =>
  (
    await trove.query<{ password_hash: string | null }>(
      'SELECT password_hash FROM users WHERE id = $1',
      [userId],
    )
  )[0].password_hash;
