import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { ExpiredCredentialsPurgeService } from '../../src/identity/expired-credentials/expired-credentials-purge.service.js';
import { signUp } from '../support/factories.js';

describe('purge of expired credentials', () => {
  const app = useTestApp();

  it('runs hourly as a scheduled job of the queue', async () => {
    const schedules = await app.trove.query<{ name: string; cron: string }>(
      `SELECT name, cron FROM pgboss.schedule WHERE name IN ('credentials.purge', 'idempotency-keys.purge') ORDER BY name`,
    );
    expect(schedules).toEqual([
      { name: 'credentials.purge', cron: '7 * * * *' },
      { name: 'idempotency-keys.purge', cron: '37 * * * *' },
    ]);
  });

  it('deletes expired sessions, dead invitations and stale logout tokens, and keeps live ones', async () => {
    const expired = await signUp(app.trove);
    const live = await signUp(app.trove);
    await app.trove.query(
      `UPDATE auth_tokens SET expires_at = now() - interval '1 minute' WHERE user_id = $1`,
      [expired.id],
    );
    const used = await app.trove.http
      .post('/api/v1/groups/invitations')
      .set('Authorization', live.authorization)
      .send({ uses: 1 })
      .expect(200);
    await app.trove.http
      .post('/api/v1/groups/invitations')
      .set('Authorization', live.authorization)
      .send({ uses: 1 })
      .expect(200);
    await app.trove.query('UPDATE group_invitation_tokens SET uses = 0 WHERE id = $1', [
      used.body.id,
    ]);

    await app.trove.query(
      `INSERT INTO oidc_logout_tokens (issuer, jti, expires_at) VALUES
         ('https://idp.example', 'stale', now() - interval '1 second'),
         ('https://idp.example', 'live', now() + interval '3 minutes')`,
    );

    const counts = await app.trove.app.get(ExpiredCredentialsPurgeService).purge();
    expect(counts).toEqual({
      tokens: 2,
      attempts: 0,
      invitations: 1,
      passwordResets: 0,
      logoutTokens: 1,
    });
    expect(await app.trove.query('SELECT jti FROM oidc_logout_tokens')).toEqual([{ jti: 'live' }]);
    await app.trove.http
      .get('/api/v1/users/self')
      .set('Authorization', live.authorization)
      .expect(200);
    const invitations = await app.trove.http
      .get('/api/v1/groups/invitations')
      .set('Authorization', live.authorization)
      .expect(200);
    expect(invitations.body).toHaveLength(1);
  });
});
