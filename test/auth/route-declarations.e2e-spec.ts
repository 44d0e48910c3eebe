import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { collectRoutes } from '../support/routes.js';

describe('route declarations', () => {
  const app = useTestApp({ TROVE_OIDC_ENABLED: 'false' });
  beforeAll(async () => {});

  it('match the committed list of routes with their public, scope and role declarations', async () => {
    const routes = collectRoutes(app.trove.app);
    expect(routes.length).toBeGreaterThan(10);
    await expect(`${JSON.stringify(routes, null, 2)}\n`).toMatchFileSnapshot(
      './route-declarations.snapshot.json',
    );
  });

  it('leave public only the routes that must be', () => {
    const publicRoutes = collectRoutes(app.trove.app)
      .filter((route) => route.public)
      .map((route) => `${route.method} ${route.path}`);
    const allowed = [
      'GET /api/v1/currencies',
      'GET /api/v1/health/live',
      'GET /api/v1/health/ready',
      'GET /api/v1/status',
      'GET /api/v1/users/login/oidc',
      'GET /api/v1/users/login/oidc/callback',
      // Authenticated by the provider's signature on the logout token.
      'POST /api/v1/users/login/oidc/backchannel-logout',
      // Ends the session the request carries, if any.
      'POST /api/v1/users/login/oidc/logout',
      'POST /api/v1/users/forgot-password',
      'POST /api/v1/users/login',
      'POST /api/v1/users/register',
      'POST /api/v1/users/reset-password',
      // Trove's sign-in pages, and their stylesheet; /home and /sign-out read the session
      // cookie themselves (a signed-out browser goes to the sign-in page).
      'GET /',
      'GET /home',
      'GET /register',
      'GET /sign-in',
      'GET /trove-pages.css',
      // The console's scripts, loaded by its pages (they hold nothing of anyone's).
      'GET /console/assets/barcode-detector.js',
      'GET /console/assets/console.js',
      'GET /console/assets/zxing_reader.wasm',
      'POST /register',
      'POST /sign-in',
      'POST /sign-out',
    ];
    // SCIM's routes are authenticated by TROVE_SCIM_TOKEN (ScimTokenGuard), not by sessions.
    const scimToken = (route: string) => /^\/scim\/v2(\/|$)/.test(route.split(' ')[1]);
    expect(publicRoutes.filter((route) => !allowed.includes(route) && !scimToken(route))).toEqual(
      [],
    );
    expect(publicRoutes).toEqual(
      expect.arrayContaining(['GET /api/v1/status', 'POST /api/v1/users/login']),
    );
  });
});
