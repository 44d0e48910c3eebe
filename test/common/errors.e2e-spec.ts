import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';

describe('error responses', () => {
  const app = useTestApp();
  beforeAll(async () => {});

  it('answers an unknown route with a JSON 404', async () => {
    const response = await app.trove.http.get('/api/v1/no-such-thing').expect(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toEqual({ error: 'Cannot GET /api/v1/no-such-thing' });
    expect(response.headers['x-request-id']).toEqual(expect.any(String));
  });

  it('answers an unknown method on a known path with a JSON 404', async () => {
    const response = await app.trove.http.delete('/api/v1/status').expect(404);
    expect(response.body).toEqual({ error: 'Cannot DELETE /api/v1/status' });
  });

  it('answers malformed JSON with a 400 that says so', async () => {
    const response = await app.trove.http
      .post('/api/v1/status')
      .set('Content-Type', 'application/json')
      .send('{"name": ')
      .expect(400);
    expect(response.body).toEqual({ error: expect.stringMatching(/^malformed JSON body: /) });
  });

  it('answers a body over the limit with a 413', async () => {
    const response = await app.trove.http
      .post('/api/v1/status')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ text: 'x'.repeat(1024 * 1024 + 10) }))
      .expect(413);
    expect(response.body).toEqual({ error: 'request body exceeds the limit of 1048576 bytes' });
  });
});
