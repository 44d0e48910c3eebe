import { describe, expect, it } from 'vitest';
import { useSharedApp } from '../support/api.js';
import { createEntity } from '../entities/entity-helpers.js';
import { uniqueEmail } from '../support/factories.js';

/** Requests the OpenAPI fuzz test answered with a 500, each now a 4xx naming what is wrong. */
describe('inputs the fuzz test found', () => {
  const t = useSharedApp();

  it('refuses a price JavaScript writes with an exponent (1e-7) with a 422', async () => {
    const entity = await createEntity(t.trove, t.owner, { name: 'Lamp' });
    for (const purchasePrice of [1e-7, 5e-324]) {
      await t.trove.http
        .put(`/api/v1/entities/${entity.id}`)
        .set('Authorization', t.owner.authorization)
        .send({ name: 'Lamp', purchasePrice, soldPrice: 1.5e-9 })
        .expect(422, {
          error: 'Validation Error',
          fields: {
            purchasePrice: 'purchasePrice must be a number with at most 4 decimal places',
            soldPrice: 'soldPrice must be a number with at most 4 decimal places',
          },
        });
    }
    const saved = await t.trove.http
      .put(`/api/v1/entities/${entity.id}`)
      .set('Authorization', t.owner.authorization)
      .send({ name: 'Lamp', purchasePrice: 19.9999 })
      .expect(200);
    expect(saved.body.purchasePrice).toBe(19.9999);
  });

  it('refuses unpaired surrogates (JSON "\\ud800") in any text with a 422 naming the field', async () => {
    const problem = 'must be valid Unicode text (it has an unpaired surrogate)';
    await t.trove.http
      .post('/api/v1/users/register')
      .set('Content-Type', 'application/json')
      .send('{"name": "x", "email": "\\ud800", "password": "correct horse battery"}')
      .expect(422, { error: 'Validation Error', fields: { email: `email ${problem}` } });
    await t.trove.http
      .post('/api/v1/tags')
      .set('Authorization', t.owner.authorization)
      .set('Content-Type', 'application/json')
      .send('{"name": "a\\udc00b"}')
      .expect(422, { error: 'Validation Error', fields: { name: `name ${problem}` } });
    // A pair is one character, and welcome.
    const email = uniqueEmail();
    await t.trove.http
      .post('/api/v1/users/register')
      .set('Content-Type', 'application/json')
      .send(`{"name": "\\ud83d\\ude00", "email": "${email}", "password": "correct horse battery"}`)
      .expect(204);
  });
});
