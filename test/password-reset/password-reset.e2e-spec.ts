import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExpiredCredentialsPurgeService } from '../../src/identity/expired-credentials/expired-credentials-purge.service.js';
import { BAD_TOKEN, FORGED_TOKEN } from '../support/auth-expectations.js';
import { signIn, signUp, uniqueEmail } from '../support/factories.js';
import { startSmtpStandIn, type SmtpStandIn } from '../support/smtp-stand-in.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import {
  INVALID_LINK,
  MAIL_FROM,
  PUBLIC_BASE,
  linkIn,
  mailEnv,
  passwordHashOf,
  requestToken,
  resetMailJobs,
  settleResetMails,
  tokenOf,
} from './password-reset-helpers.js';

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();

describe('password reset by e-mail', () => {
  let smtp: SmtpStandIn;
  let trove: TestApp;

  beforeAll(async () => {
    smtp = await startSmtpStandIn();
    trove = await createTestApp({
      ...mailEnv(smtp),
      TROVE_MAILER_USERNAME: 'trove-mailer',
      TROVE_MAILER_PASSWORD: 'mailer secret',
    });
  });
  afterAll(async () => {
    await trove.close();
    await smtp.close();
  });

  const forgot = (body: unknown) =>
    trove.http.post('/api/v1/users/forgot-password').send(body as object);
  const reset = (body: unknown) =>
    trove.http.post('/api/v1/users/reset-password').send(body as object);
  const self = (authorization: string) =>
    trove.http.get('/api/v1/users/self').set('Authorization', authorization);

  it('mails a link to an existing user; the link sets a new password once and ends every session', async () => {
    const user = await signUp(trove, { name: 'Ada <Lovelace>', password: 'old password 1' });
    const other = await signIn(trove, user.email, 'old password 1');
    const stranger = await signUp(trove);
    const apiKey = await trove.http
      .post('/api/v1/users/self/api-keys')
      .set('Authorization', user.authorization)
      .send({ name: 'script' })
      .expect(201);

    // The link's base is the configured hostname, never one a request names.
    const response = await trove.http
      .post('/api/v1/users/forgot-password')
      .set('X-Forwarded-Host', 'attacker.example.com')
      .set('Referer', 'https://attacker.example.com/')
      .send({ email: `  ${user.email.toUpperCase()} ` })
      .expect(204);
    expect(response.text).toBe('');
    await settleResetMails(trove);

    const mails = smtp.to(user.email);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail.envelopeFrom).toBe('trove@example.com');
    expect(mail.authenticatedAs).toBe('trove-mailer');
    expect(mail.headers.from).toBe(MAIL_FROM);
    expect(mail.headers.to).toBe(user.email);
    expect(mail.headers.subject).toBe('Reset your Trove password');
    expect(mail.headers['content-type']).toMatch(/^multipart\/alternative;/);
    expect(mail.text).toContain('Hello Ada <Lovelace>,');
    expect(mail.html).toContain('Hello Ada &lt;Lovelace&gt;,');
    const link = linkIn(mail);
    expect(link.startsWith(`${PUBLIC_BASE}/reset-password?token=`)).toBe(true);
    const token = tokenOf(link);
    expect(token).toMatch(/^[\w-]{43}$/);

    // Only the token's hash is stored, for an hour; the job carried only the address.
    const rows = await trove.query<{ token_hash: Buffer; lifetime: number; used_at: Date | null }>(
      `SELECT token_hash, extract(epoch FROM expires_at - created_at)::float AS lifetime, used_at
         FROM password_resets WHERE user_id = $1`,
      [user.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash.equals(sha256(token))).toBe(true);
    expect(Math.round(rows[0].lifetime)).toBe(3600);
    expect(rows[0].used_at).toBeNull();
    const jobs = await resetMailJobs(trove);
    expect(jobs.at(-1)).toEqual({ state: 'completed', data: { email: user.email } });
    expect(JSON.stringify(jobs)).not.toContain(token);

    const done = await reset({ token, password: 'new password 2' }).expect(204);
    expect(done.text).toBe('');

    await self(user.authorization).expect(401);
    await self(other.authorization).expect(401);
    await trove.http
      .get('/api/v1/users/self')
      .query({ access_token: user.attachmentToken })
      .expect(401);
    const [{ n: sessionsLeft }] = await trove.query<{ n: string }>(
      'SELECT count(*) AS n FROM auth_tokens WHERE user_id = $1',
      [user.id],
    );
    expect(Number(sessionsLeft)).toBe(0);
    // API keys are not sessions: they stay until deleted.
    await self(apiKey.body.token as string).expect(200);
    await self(stranger.authorization).expect(200);

    await trove.http
      .post('/api/v1/users/login')
      .send({ username: user.email, password: 'old password 1' })
      .expect(401);
    const fresh = await signIn(trove, user.email, 'new password 2');
    expect((await self(fresh.authorization).expect(200)).body.item.id).toBe(user.id);

    await reset({ token, password: 'third password 3' }).expect(400, INVALID_LINK);
    await signIn(trove, user.email, 'new password 2');
    const [used] = await trove.query<{ used_at: Date | null }>(
      'SELECT used_at FROM password_resets WHERE user_id = $1',
      [user.id],
    );
    expect(used.used_at).toEqual(expect.any(Date));
  });

  it('replaces an unused link with a newer one', async () => {
    const user = await signUp(trove, { password: 'old password 1' });
    const first = await requestToken(trove, smtp, user.email);
    const second = await requestToken(trove, smtp, user.email);
    expect(second).not.toBe(first);
    await reset({ token: first, password: 'new password 2' }).expect(400, INVALID_LINK);
    await reset({ token: second, password: 'new password 2' }).expect(204);
    await signIn(trove, user.email, 'new password 2');
  });

  it('answers 204 for an unknown address and mails nothing', async () => {
    const email = uniqueEmail('nobody');
    const jobsBefore = (await resetMailJobs(trove)).length;
    await forgot({ email }).expect(204, '');
    await settleResetMails(trove);
    const jobs = await resetMailJobs(trove);
    expect(jobs).toHaveLength(jobsBefore + 1);
    expect(jobs.at(-1)).toEqual({ state: 'completed', data: { email } });
    expect(smtp.to(email)).toEqual([]);
  });

  it('answers 204 for a user who only signs in through OIDC and mails nothing', async () => {
    const email = uniqueEmail('oidc');
    const [{ id }] = await trove.query<{ id: string }>(
      `INSERT INTO users (name, email, password_hash, oidc_issuer, oidc_subject)
       VALUES ('Olive', $1, NULL, 'https://idp.example.com', 'subject-1') RETURNING id`,
      [email],
    );
    await forgot({ email }).expect(204, '');
    await settleResetMails(trove);
    expect(smtp.to(email)).toEqual([]);
    expect(await trove.query('SELECT id FROM password_resets WHERE user_id = $1', [id])).toEqual(
      [],
    );
  });

  it('refuses an expired link with 400 and changes nothing', async () => {
    const user = await signUp(trove, { password: 'old password 1' });
    const token = await requestToken(trove, smtp, user.email);
    await trove.query(
      `UPDATE password_resets SET expires_at = now() - interval '1 second' WHERE user_id = $1`,
      [user.id],
    );
    const hash = await passwordHashOf(trove, user.id);
    await reset({ token, password: 'new password 2' }).expect(400, INVALID_LINK);
    expect(await passwordHashOf(trove, user.id)).toBe(hash);
    await self(user.authorization).expect(200);
  });

  it('are purged once expired, with the hourly purge of credentials', async () => {
    const live = await signUp(trove, { password: 'old password 1' });
    const expired = await signUp(trove, { password: 'old password 1' });
    const liveToken = await requestToken(trove, smtp, live.email);
    await requestToken(trove, smtp, expired.email);
    await trove.query(
      `UPDATE password_resets SET expires_at = now() - interval '1 minute' WHERE user_id = $1`,
      [expired.id],
    );
    const [{ n: due }] = await trove.query<{ n: string }>(
      'SELECT count(*) AS n FROM password_resets WHERE expires_at <= now()',
    );
    const counts = await trove.app.get(ExpiredCredentialsPurgeService).purge();
    expect(counts.passwordResets).toBe(Number(due));
    const left = await trove.query<{ user_id: string }>(
      'SELECT user_id FROM password_resets WHERE user_id = ANY($1)',
      [[live.id, expired.id]],
    );
    expect(left).toEqual([{ user_id: live.id }]);
    await reset({ token: liveToken, password: 'new password 2' }).expect(204);
  });

  it('refuses bad forgot-password bodies with 422 naming email, queuing nothing', async () => {
    const jobsBefore = (await resetMailJobs(trove)).length;
    const invalid = {
      error: 'Validation Error',
      fields: { email: 'email must be an e-mail address' },
    };
    // Register answers the same for an address that is no string at all.
    const notText = {
      error: 'Validation Error',
      fields: {
        email:
          'email must be shorter than or equal to 255 characters; email must be an e-mail address',
      },
    };
    await forgot({}).expect(422, notText);
    await forgot({ email: 42 }).expect(422, notText);
    await forgot({ email: ['a@example.com'] }).expect(422, notText);
    await forgot({ email: null }).expect(422, notText);
    await forgot({ email: '   ' }).expect(422, invalid);
    await forgot({ email: 'not-an-address' }).expect(422, invalid);
    await forgot({ email: 'ada@example.com\u0000' }).expect(422);
    const long = await forgot({ email: `${'a'.repeat(250)}@example.com` }).expect(422);
    expect(Object.keys(long.body.fields as object)).toEqual(['email']);
    const notJson = await trove.http
      .post('/api/v1/users/forgot-password')
      .set('Content-Type', 'application/json')
      .send('{"email":')
      .expect(400);
    expect(notJson.body).toEqual({ error: expect.any(String) });
    expect(await resetMailJobs(trove)).toHaveLength(jobsBefore);
  });

  it('refuses bad reset-password bodies with 4xx, changing nothing', async () => {
    const user = await signUp(trove, { password: 'old password 1' });
    const token = await requestToken(trove, smtp, user.email);
    const hash = await passwordHashOf(trove, user.id);

    const short = await reset({ token, password: 'short' }).expect(422);
    expect(short.body).toEqual({
      error: 'Validation Error',
      fields: { password: 'password must be longer than or equal to 8 characters' },
    });
    const empty = await reset({}).expect(422);
    expect(Object.keys(empty.body.fields as object).sort()).toEqual(['password', 'token']);
    await reset({ token: 123, password: 'long enough 1' }).expect(422);
    await reset({ token: '', password: 'long enough 1' }).expect(422);
    await reset({ token: 'x'.repeat(256), password: 'long enough 1' }).expect(422);
    await reset({ token, password: 'x'.repeat(1025) }).expect(422);
    await reset({ token: `${token}x`, password: 'long enough 1' }).expect(400, INVALID_LINK);
    await reset({ token: 'ünïcødé \u0001 token', password: 'long enough 1' }).expect(
      400,
      INVALID_LINK,
    );
    await trove.http
      .post('/api/v1/users/reset-password')
      .set('Content-Type', 'application/json')
      .send('[1,')
      .expect(400);

    expect(await passwordHashOf(trove, user.id)).toBe(hash);
    await self(user.authorization).expect(200);
    // The link still works after all that.
    await reset({ token, password: 'long enough 1' }).expect(204);
  });

  it('are public: a bad token in the Authorization header does not matter', async () => {
    const user = await signUp(trove, { password: 'old password 1' });
    await trove.http
      .post('/api/v1/users/forgot-password')
      .set('Authorization', FORGED_TOKEN)
      .send({ email: user.email })
      .expect(204);
    await settleResetMails(trove);
    const token = tokenOf(linkIn(smtp.to(user.email)[0]));
    await trove.http
      .post('/api/v1/users/reset-password')
      .set('Authorization', FORGED_TOKEN)
      .send({ token, password: 'new password 2' })
      .expect(204);
    await self(FORGED_TOKEN).expect(401, BAD_TOKEN);
  });
});
