import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';

const packageVersion = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string })
  .version;

describe('GET /api/v1/status', () => {
  let trove: TestApp;

  beforeAll(async () => {
    trove = await createTestApp({
      TROVE_BUILD_COMMIT: 'abc123',
      TROVE_BUILD_TIME: '2026-11-01T10:00:00Z',
    });
  });
  afterAll(() => trove.close());

  it('answers 200 without a token, with every field of the spec and its type', async () => {
    const response = await trove.http.get('/api/v1/status').expect(200);

    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toEqual({
      allowRegistration: true,
      build: { buildTime: '2026-11-01T10:00:00Z', commit: 'abc123', version: packageVersion },
      demo: false,
      health: true,
      labelPrinting: false,
      latest: { date: '2026-11-01T10:00:00Z', version: packageVersion },
      message: expect.any(String),
      oidc: {
        allowLocal: true,
        autoRedirect: false,
        buttonText: 'Sign in with OIDC',
        enabled: false,
      },
      telemetry: { enabled: false },
      title: 'Trove',
      versions: ['v1'],
    });
    expect(response.body.message.length).toBeGreaterThan(0);
  });

  it('ignores a bad token, since the route is public', async () => {
    const response = await trove.http
      .get('/api/v1/status')
      .set('Authorization', 'Bearer not-a-token')
      .expect(200);
    expect(response.body.health).toBe(true);
  });

  it('carries a request id, echoing a sane one given by the caller', async () => {
    const fresh = await trove.http.get('/api/v1/status').expect(200);
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);

    const echoed = await trove.http
      .get('/api/v1/status')
      .set('X-Request-Id', 'trace-42')
      .expect(200);
    expect(echoed.headers['x-request-id']).toBe('trace-42');

    const replaced = await trove.http
      .get('/api/v1/status')
      .set('X-Request-Id', 'has spaces and <html>')
      .expect(200);
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends security headers', async () => {
    const response = await trove.http.get('/api/v1/status').expect(200);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['x-powered-by']).toBeUndefined();
  });
});

describe('GET /api/v1/status with other settings', () => {
  let trove: TestApp;

  beforeAll(async () => {
    trove = await createTestApp({
      TROVE_OPTIONS_ALLOW_REGISTRATION: 'false',
      TROVE_OPTIONS_ALLOW_LOCAL_LOGIN: 'false',
      TROVE_DEMO: 'true',
      TROVE_LABEL_MAKER_PRINT_COMMAND: 'lp {{.FileName}}',
      TROVE_OIDC_ENABLED: 'true',
      TROVE_OIDC_ISSUER_URL: 'http://127.0.0.1:1/issuer',
      TROVE_OIDC_CLIENT_ID: 'trove',
      TROVE_OIDC_CLIENT_SECRET: 'secret',
      TROVE_OIDC_BUTTON_TEXT: 'Company login',
      TROVE_OIDC_AUTO_REDIRECT: 'true',
    });
  });
  afterAll(() => trove.close());

  it('reflects the configuration', async () => {
    const response = await trove.http.get('/api/v1/status').expect(200);
    expect(response.body).toMatchObject({
      allowRegistration: false,
      demo: true,
      labelPrinting: true,
      oidc: { allowLocal: false, autoRedirect: true, buttonText: 'Company login', enabled: true },
    });
  });
});

describe('GET /api/v1/status when the database is gone', () => {
  let trove: TestApp;

  beforeAll(async () => {
    trove = await createTestApp();
  });
  afterAll(() => trove.close());

  it('still answers 200, with health false, and readiness fails while liveness holds', async () => {
    await trove.http.get('/api/v1/health/ready').expect(200, { status: 'ok' });
    await trove.database.drop();

    const response = await trove.http.get('/api/v1/status').expect(200);
    expect(response.body.health).toBe(false);
    expect(response.body.versions).toEqual(['v1']);

    await trove.http.get('/api/v1/health/live').expect(200, { status: 'ok' });
    await trove.http
      .get('/api/v1/health/ready')
      .expect(503, { error: 'database is not reachable' });
  });
});
