import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, uniqueEmail } from '../support/factories.js';
import { startSmtpStandIn, type SmtpStandIn } from '../support/smtp-stand-in.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import {
  INVALID_LINK,
  mailEnv,
  passwordHashOf,
  requestToken,
  resetMailJobs,
  settleResetMails,
} from './password-reset-helpers.js';

const TOO_MANY = { error: 'too many authentication attempts' };

/** An app (with these settings) beside an SMTP stand-in, for the tests of one block. */
function useAppWithSmtp(env: (smtp: SmtpStandIn) => Record<string, string>) {
  const shared = {} as { trove: TestApp; smtp: SmtpStandIn };
  beforeAll(async () => {
    shared.smtp = await startSmtpStandIn();
    shared.trove = await createTestApp(env(shared.smtp));
  });
  afterAll(async () => {
    await shared.trove.close();
    await shared.smtp.close();
  });
  return shared;
}

/** Asks for a reset of an existing user's address: 204, the job runs, and no mail or link comes of it. */
async function expectSilentRequest(trove: TestApp, smtp: SmtpStandIn): Promise<void> {
  const user = await signUp(trove);
  await trove.http
    .post('/api/v1/users/forgot-password')
    .set('X-Forwarded-Host', 'attacker.example.com')
    .set('X-Forwarded-Proto', 'https')
    .send({ email: user.email })
    .expect(204, '');
  await settleResetMails(trove);
  expect(await resetMailJobs(trove)).toEqual([{ state: 'completed', data: { email: user.email } }]);
  expect(smtp.messages).toEqual([]);
  expect(await trove.query('SELECT id FROM password_resets')).toEqual([]);
}

describe('password reset without a mail sender configured', () => {
  const app = useAppWithSmtp((smtp) => ({ ...mailEnv(smtp), TROVE_MAILER_FROM: '' }));

  it('answers 204 and mails nothing', async () => {
    await expectSilentRequest(app.trove, app.smtp);
  });
});

describe('password reset without TROVE_OPTIONS_HOSTNAME', () => {
  const app = useAppWithSmtp((smtp) => ({ ...mailEnv(smtp), TROVE_OPTIONS_HOSTNAME: '' }));

  it('answers 204 and mails nothing, whatever Host the request names', async () => {
    await expectSilentRequest(app.trove, app.smtp);
  });
});

describe.each([
  ['in demo mode', { TROVE_DEMO: 'true' }, 'not allowed in demo mode'],
  [
    'with local login disabled',
    { TROVE_OPTIONS_ALLOW_LOCAL_LOGIN: 'false' },
    'local login is not enabled',
  ],
])('password reset %s', (_name, env, message) => {
  const app = useAppWithSmtp((smtp) => ({ ...mailEnv(smtp), ...env }));

  it('refuses both routes with 403, queuing and changing nothing', async () => {
    await app.trove.http
      .post('/api/v1/users/forgot-password')
      .send({ email: uniqueEmail() })
      .expect(403, { error: message });
    await app.trove.http
      .post('/api/v1/users/reset-password')
      .send({ token: 'any-token', password: 'long enough 1' })
      .expect(403, { error: message });
    expect(await resetMailJobs(app.trove)).toEqual([]);
    expect(app.smtp.messages).toEqual([]);
  });
});

describe('password reset throttling', () => {
  const app = useAppWithSmtp((smtp) => ({
    ...mailEnv(smtp),
    TROVE_AUTH_RATE_LIMIT_MAX_ATTEMPTS: '2',
    TROVE_AUTH_RATE_LIMIT_BASE_BACKOFF: '30',
  }));
  const forgot = (email: string) =>
    app.trove.http.post('/api/v1/users/forgot-password').send({ email });
  const reset = (token: string) =>
    app.trove.http.post('/api/v1/users/reset-password').send({ token, password: 'new password 2' });

  const expectLocked = (response: { body: unknown; headers: Record<string, string> }): void => {
    expect(response.body).toEqual(TOO_MANY);
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(30);
  };

  it('counts every forgot-password request per address, alike for unknown addresses', async () => {
    const user = await signUp(app.trove);
    const unknown = uniqueEmail('nobody');
    for (const email of [user.email, unknown]) {
      await forgot(email).expect(204);
      await forgot(email.toUpperCase()).expect(204);
      expectLocked(await forgot(email).expect(429));
    }
    await settleResetMails(app.trove);
    // The refused requests queued nothing; another address is not held up.
    expect(await resetMailJobs(app.trove)).toHaveLength(4);
    expect(app.smtp.to(user.email)).toHaveLength(2);
    await forgot(uniqueEmail()).expect(204);
  });

  it('locks reset-password for a client after repeated bad links, even for a good one', async () => {
    const user = await signUp(app.trove, { password: 'old password 1' });
    const token = await requestToken(app.trove, app.smtp, user.email);
    const hash = await passwordHashOf(app.trove, user.id);
    // A client address may fail four times as often as an account.
    for (let i = 0; i < 8; i++) await reset(`no-such-token-${i}`).expect(400, INVALID_LINK);
    expectLocked(await reset(token).expect(429));
    expect(await passwordHashOf(app.trove, user.id)).toBe(hash);
  });
});
