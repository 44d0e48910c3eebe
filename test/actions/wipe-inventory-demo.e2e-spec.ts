import { describe, expect, it } from 'vitest';
import { as, createEntity, useTestApp } from '../support/api.js';
import { signUp } from '../support/factories.js';

describe('POST /api/v1/actions/wipe-inventory in demo mode', () => {
  const app = useTestApp({ TROVE_DEMO: 'true' });

  it('refuses even the owner, and deletes nothing', async () => {
    const owner = await signUp(app.trove);
    const lamp = await createEntity(app.trove, owner, 'Lamp');

    const response = await as(app.trove, owner, 'post', '/api/v1/actions/wipe-inventory').send({
      wipeTags: true,
    });

    expect([response.status, response.body]).toEqual([403, { error: 'not allowed in demo mode' }]);
    await as(app.trove, owner, 'get', `/api/v1/entities/${lamp.id}`).expect(200);
    const tags = await as(app.trove, owner, 'get', '/api/v1/tags').expect(200);
    expect(tags.body).toHaveLength(6);
  });
});
