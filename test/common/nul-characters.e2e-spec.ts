import { describe, expect, it } from 'vitest';
import { useSharedApp } from '../support/api.js';
import { pdf, upload } from '../attachments/attachment-helpers.js';
import { createEntity } from '../entities/entity-helpers.js';
import { uniqueEmail } from '../support/factories.js';

const nulField = (field: string) => ({
  error: 'Validation Error',
  fields: { [field]: `${field} must not contain NUL characters` },
});

describe('NUL characters in input', () => {
  let entityId: string;

  const t = useSharedApp(async ({ trove, owner }) => {
    entityId = (await createEntity(trove, owner, { name: 'Drill' })).id;
  });

  const as = (method: 'get' | 'post' | 'put', path: string) =>
    t.trove.http[method](path).set('Authorization', t.owner.authorization);

  it('refuses them in login and registration bodies with a 422 naming the field', async () => {
    await t.trove.http
      .post('/api/v1/users/login')
      .send({ username: 'a\u0000@example.com', password: 'correct horse battery' })
      .expect(422, nulField('username'));
    await t.trove.http
      .post('/api/v1/users/login')
      .type('form')
      .send('username=someone%40example.com&password=pass%00word')
      .expect(422, nulField('password'));
    const email = uniqueEmail();
    await t.trove.http
      .post('/api/v1/users/register')
      .send({ name: 'Nul\u0000Name', email, password: 'correct horse battery' })
      .expect(422, nulField('name'));
    const stored = await t.trove.query('SELECT 1 FROM users WHERE email = $1', [email]);
    expect(stored).toEqual([]);
  });

  it('refuses them in names, descriptions and notes, nested fields included', async () => {
    await as('post', '/api/v1/tags').send({ name: 'Tag\u0000' }).expect(422, nulField('name'));
    await as('post', '/api/v1/entities')
      .send({ name: 'Saw', description: '\u0000' })
      .expect(422, nulField('description'));
    await as('put', `/api/v1/entities/${entityId}`)
      .send({ name: 'Drill', notes: 'left\u0000right' })
      .expect(422, nulField('notes'));
    await as('put', `/api/v1/entities/${entityId}`)
      .send({ name: 'Drill', fields: [{ name: 'Volts', type: 'text', textValue: '18\u0000' }] })
      .expect(422, nulField('fields.0.textValue'));
    const [entity] = await t.trove.query<{ notes: string }>(
      'SELECT notes FROM entities WHERE id = $1',
      [entityId],
    );
    expect(entity.notes).toBe('');
  });

  it('refuses them in multipart text fields', async () => {
    const response = await upload(t.trove, t.owner, entityId, {
      content: pdf(),
      name: 'a\u0000.pdf',
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual(nulField('name'));
  });

  it('refuses them in query and path parameters with a 400 naming the parameter', async () => {
    await as('get', '/api/v1/entities?q=a%00b').expect(400, {
      error: 'query parameter q must not contain NUL characters',
    });
    await as('get', '/api/v1/entities/fields/values?field=%00').expect(400, {
      error: 'query parameter field must not contain NUL characters',
    });
    await as('get', '/api/v1/assets/%00').expect(400, {
      error: 'path parameter id must not contain NUL characters',
    });
    await as('get', '/api/v1/entities/%00').expect(400, {
      error: 'path parameter id must not contain NUL characters',
    });
    await as('post', '/api/v1/groups/invitations/abc%00').expect(400, {
      error: 'path parameter token must not contain NUL characters',
    });
  });

  it('keeps other unusual text: right-to-left marks and astral characters', async () => {
    const name = '\u202Eevil \u{1F600} \u{10FFFD}';
    const created = await createEntity(t.trove, t.owner, { name });
    expect(created.name).toBe(name);
    await as('get', `/api/v1/entities?q=${encodeURIComponent('\u{1F600}')}`).expect(200);
  });
});
