import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExpiredCredentialsPurgeService } from '../../src/auth/expired-credentials-purge.service.js';
import { signUp } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('purge of expired credentials', () => {
  let trove: TestApp;

  beforeAll(async () => {
    trove = await createTestApp();
  });
  afterAll(() => trove.close());

  it('deletes expired sessions and dead invitations, and keeps live ones', async () => {
    const expired = await signUp(trove);
    const live = await signUp(trove);
    await trove.query(
      `UPDATE auth_tokens SET expires_at = now() - interval '1 minute' WHERE user_id = $1`,
      [expired.id],
    );
    const used = await trove.http
      .post('/api/v1/groups/invitations')
      .set('Authorization', live.authorization)
      .send({ uses: 1 })
      .expect(200);
    await trove.http
      .post('/api/v1/groups/invitations')
      .set('Authorization', live.authorization)
      .send({ uses: 1 })
      .expect(200);
    await trove.query('UPDATE group_invitation_tokens SET uses = 0 WHERE id = $1', [used.body.id]);

    const counts = await trove.app.get(ExpiredCredentialsPurgeService).purge();
    expect(counts).toEqual({ tokens: 2, attempts: 0, invitations: 1 });
    await trove.http.get('/api/v1/users/self').set('Authorization', live.authorization).expect(200);
    const invitations = await trove.http
      .get('/api/v1/groups/invitations')
      .set('Authorization', live.authorization)
      .expect(200);
    expect(invitations.body).toHaveLength(1);
  });
});
