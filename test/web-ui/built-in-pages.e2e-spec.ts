import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, signUp, uniqueEmail, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const PAGE_CSP =
  "default-src 'none';style-src 'self';img-src 'self' data:;base-uri 'none';" +
  "form-action 'self';frame-ancestors 'none'";

/** A page's markup with the spaces between tags dropped and other runs of spaces made one. */
const compact = (html: string): string => html.replace(/>\s+</g, '><').replace(/\s+/g, ' ');

/** The `name=value` pairs a response sets, as a Cookie header sends them back. */
function cookiesOf(setCookie: string[] | string | undefined): string {
  const lines = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return lines
    .map((line) => line.split(';')[0])
    .filter((pair) => !pair.endsWith('='))
    .join('; ');
}

/** Each Set-Cookie line by cookie name, without its expiry date. */
function cookieAttributes(setCookie: string[] | string | undefined): Record<string, string> {
  const lines = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return Object.fromEntries(
    lines.map((line) => {
      const parts = line.split(';').map((part) => part.trim());
      const [name] = parts[0].split('=');
      const attributes = parts.slice(1).filter((part) => !/^expires=/i.test(part));
      return [name, attributes.join('; ')];
    }),
  );
}

describe('Trove’s own pages (no TROVE_WEB_UI_DIR)', () => {
  let trove: TestApp;
  let member: Session;

  beforeAll(async () => {
    trove = await createTestApp();
    member = await signUp(trove, { name: 'Ada <Lovelace> & "Co"' });
  });
  afterAll(() => trove?.close());

  const post = (path: string, form: Record<string, string>, origin = trove.baseUrl) =>
    trove.http.post(path).set('Origin', origin).type('form').send(form);

  describe('GET /', () => {
    it('shows the sign-in form and registration, with the pages’ headers', async () => {
      const response = await trove.http.get('/').expect(200);
      expect(response.headers).toMatchObject({
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': PAGE_CSP,
        'cache-control': 'no-store',
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
      });
      expect(compact(response.text)).toContain('<form method="post" action="/sign-in">');
      expect(compact(response.text)).toContain('name="email" type="email"');
      expect(compact(response.text)).toContain('name="password" type="password"');
      expect(compact(response.text)).toContain('<a href="/register">Register</a>');
      expect(compact(response.text)).not.toContain('/api/v1/users/login/oidc');
      expect(compact(response.text)).not.toContain('<script');
      expect(compact(response.text)).not.toContain('role="alert"');
    });

    it('shows a failed single sign-on as a readable message', async () => {
      const response = await trove.http.get('/?oidc_error=oidc_auth_failed').expect(200);
      expect(compact(response.text)).toContain(
        '<p class="alert" role="alert">Single sign-on did not succeed. Try again, or ask your ' +
          'administrator if it keeps failing.</p>',
      );
    });

    it('says so when single sign-on was refused because the account is disabled', async () => {
      const disabled = await trove.http
        .get('/?oidc_error=oidc_auth_failed&oidc_reason=account_disabled')
        .expect(200);
      expect(compact(disabled.text)).toContain(
        '<p class="alert" role="alert">This account is disabled. Ask your administrator if you ' +
          'should still have access.</p>',
      );
      const unknown = await trove.http
        .get('/?oidc_error=oidc_auth_failed&oidc_reason=<b>')
        .expect(200);
      expect(compact(unknown.text)).toContain(
        '<p class="alert" role="alert">Single sign-on did not succeed.',
      );
      expect(unknown.text).not.toContain('<b>');
    });

    it('serves its stylesheet', async () => {
      const response = await trove.http.get('/trove-pages.css').expect(200);
      expect(response.headers['content-type']).toBe('text/css; charset=utf-8');
      expect(compact(response.text)).toContain('prefers-color-scheme: dark');
    });

    it('leaves every other path to the API as before', async () => {
      const unknown = await trove.http.get('/api/v1/no-such-thing').expect(404);
      expect(unknown.body).toEqual({ error: 'Cannot GET /api/v1/no-such-thing' });
      const page = await trove.http.get('/item/anything').expect(404);
      expect(compact(page.text)).toContain('Cannot GET /item/anything');
    });
  });

  describe('signing in', () => {
    it('sets the API login’s session cookies and goes to /home, which names the user', async () => {
      const response = await post('/sign-in', { email: member.email, password: member.password });
      expect(response.status).toBe(303);
      expect(response.headers.location).toBe('/home');
      expect(cookieAttributes(response.headers['set-cookie'])).toEqual({
        'hb.auth.token': 'Path=/; HttpOnly; SameSite=Lax',
        'hb.auth.remember': 'Path=/; HttpOnly; SameSite=Lax',
        'hb.auth.session': 'Path=/; SameSite=Lax',
        'hb.auth.attachment_token': 'Path=/; SameSite=Lax',
      });
      const cookie = cookiesOf(response.headers['set-cookie']);
      const self = await trove.http.get('/api/v1/users/self').set('Cookie', cookie).expect(200);
      expect(self.body.item.email).toBe(member.email);

      const home = await trove.http.get('/home').set('Cookie', cookie).expect(200);
      expect(home.headers['content-security-policy']).toBe(PAGE_CSP);
      expect(compact(home.text)).toContain(
        '<h1>Signed in as Ada &lt;Lovelace&gt; &amp; &quot;Co&quot;</h1>',
      );
      expect(compact(home.text)).toContain(`<p class="muted">${member.email}</p>`);
      expect(compact(home.text)).toContain(
        '<tr><td>Ada &lt;Lovelace&gt; &amp; &quot;Co&quot;&#39;s Home</td><td>owner</td></tr>',
      );
      expect(compact(home.text)).toContain('<a href="/swagger">Swagger UI</a>');
      expect(compact(home.text)).toContain(
        '<a href="/swagger/openapi.json">The OpenAPI document</a>',
      );
      expect(compact(home.text)).toContain('<code>npm run web-ui</code>');
      expect(compact(home.text)).toContain('<form method="post" action="/sign-out">');
      expect(compact(home.text)).not.toContain('<Lovelace>');

      const again = await trove.http.get('/').set('Cookie', cookie).expect(302);
      expect(again.headers.location).toBe('/home');
    });

    it('lists every group of the user with their role in it', async () => {
      const other = await signUp(trove, { name: 'Grace' });
      const invitation = await trove.http
        .post('/api/v1/groups/invitations')
        .set('Authorization', other.authorization)
        .send({ uses: 1, role: 'viewer' })
        .expect(200);
      const joiner = await signUp(trove, { name: 'Joiner' });
      await trove.http
        .post(`/api/v1/groups/invitations/${invitation.body.token}`)
        .set('Authorization', joiner.authorization)
        .expect(200);
      const signedIn = await post('/sign-in', { email: joiner.email, password: joiner.password });
      const home = await trove.http
        .get('/home')
        .set('Cookie', cookiesOf(signedIn.headers['set-cookie']))
        .expect(200);
      expect(compact(home.text)).toContain(
        '<tbody><tr><td>Grace&#39;s Home</td><td>viewer</td></tr>' +
          '<tr><td>Joiner&#39;s Home</td><td>owner</td></tr></tbody>',
      );
    });

    it('answers a wrong password with 401 and a message, setting no cookie', async () => {
      const email = `<b>${member.email}`;
      const response = await post('/sign-in', { email, password: 'wrong password' }).expect(401);
      expect(response.headers['set-cookie']).toBeUndefined();
      expect(compact(response.text)).toContain(
        '<p class="alert" role="alert">Wrong e-mail address or password.</p>',
      );
      expect(compact(response.text)).toContain(`value="&lt;b&gt;${member.email}"`);
    });

    it('answers a disabled account with 403 and a message on the form, setting no cookie', async () => {
      const leaver = await signUp(trove, { name: 'Lea Leaver' });
      await trove.query(`UPDATE users SET disabled_at = now() WHERE id = $1`, [leaver.id]);
      const response = await post('/sign-in', {
        email: leaver.email,
        password: leaver.password,
      }).expect(403);
      expect(response.headers['set-cookie']).toBeUndefined();
      expect(compact(response.text)).toContain(
        '<p class="alert" role="alert">This account is disabled. Ask your administrator if you ' +
          'should still have access.</p>',
      );
      expect(compact(response.text)).toContain(`value="${leaver.email}"`);
    });

    it('answers a form without e-mail or password with 422, counting no attempt', async () => {
      const response = await post('/sign-in', { email: member.email }).expect(422);
      expect(compact(response.text)).toContain('Enter your e-mail address and password.');
      const attempts = await trove.query<{ count: string }>(
        'SELECT count(*) FROM login_attempts WHERE key = $1',
        [`account:${member.email}`],
      );
      expect(attempts).toEqual([{ count: '0' }]);
    });

    it('throttles failed sign-ins as the API does (429 with Retry-After)', async () => {
      const victim = await signUp(trove);
      for (let attempt = 0; attempt < 5; attempt += 1) {
        await post('/sign-in', { email: victim.email, password: 'not it' }).expect(401);
      }
      const locked = await post('/sign-in', { email: victim.email, password: victim.password });
      expect(locked.status).toBe(429);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      expect(locked.text).toMatch(/Too many failed attempts\. Try again in \d+ seconds\./);
      expect(locked.headers['set-cookie']).toBeUndefined();
    });

    it('refuses a post from another site, or one that names no origin (403)', async () => {
      const form = { email: member.email, password: member.password };
      const foreign = await post('/sign-in', form, 'https://evil.example').expect(403);
      expect(compact(foreign.text)).toContain(
        'This form was sent from another site, so it was refused.',
      );
      expect(foreign.headers['set-cookie']).toBeUndefined();
      const opaque = await post('/sign-in', form, 'null').expect(403);
      expect(opaque.headers['set-cookie']).toBeUndefined();
      const sandboxed = await post('/sign-in', form, 'null')
        .set('Sec-Fetch-Site', 'cross-site')
        .expect(403);
      expect(sandboxed.headers['set-cookie']).toBeUndefined();
      const none = await trove.http.post('/sign-in').type('form').send(form).expect(403);
      expect(none.headers['set-cookie']).toBeUndefined();
      const fetched = await trove.http
        .post('/sign-in')
        .set('Sec-Fetch-Site', 'same-origin')
        .type('form')
        .send(form)
        .expect(303);
      expect(fetched.headers.location).toBe('/home');
      // A page with `Referrer-Policy: no-referrer` posts `Origin: null` with its own site.
      await post('/sign-in', form, 'null').set('Sec-Fetch-Site', 'same-origin').expect(303);
    });
  });

  describe('signing out', () => {
    it('ends the session as the API’s logout does and clears the cookies', async () => {
      const signedIn = await post('/sign-in', { email: member.email, password: member.password });
      const cookie = cookiesOf(signedIn.headers['set-cookie']);
      await trove.http.get('/api/v1/users/self').set('Cookie', cookie).expect(200);

      const out = await trove.http
        .post('/sign-out')
        .set('Origin', trove.baseUrl)
        .set('Cookie', cookie)
        .expect(303);
      expect(out.headers.location).toBe('/');
      expect(cookieAttributes(out.headers['set-cookie'])).toMatchObject({
        'hb.auth.token': 'Path=/; HttpOnly; SameSite=Lax',
      });
      expect(out.headers['set-cookie']).toContainEqual(
        expect.stringMatching(/^hb\.auth\.token=; Path=\/; Expires=Thu, 01 Jan 1970/),
      );
      // The old cookie no longer works anywhere.
      await trove.http.get('/api/v1/users/self').set('Cookie', cookie).expect(401);
      const home = await trove.http.get('/home').set('Cookie', cookie).expect(302);
      expect(home.headers.location).toBe('/');
    });

    it('refuses a sign-out posted from another site, leaving the session', async () => {
      const signedIn = await post('/sign-in', { email: member.email, password: member.password });
      const cookie = cookiesOf(signedIn.headers['set-cookie']);
      await trove.http
        .post('/sign-out')
        .set('Origin', 'https://evil.example')
        .set('Cookie', cookie)
        .expect(403);
      await trove.http.get('/api/v1/users/self').set('Cookie', cookie).expect(200);
    });

    it('sends /home to / when signed out, or with a token that is not a session', async () => {
      const none = await trove.http.get('/home').expect(302);
      expect(none.headers.location).toBe('/');
      const fresh = await signIn(trove, member.email, member.password);
      const attachment = await trove.http
        .get('/home')
        .set('Cookie', `hb.auth.token=${fresh.attachmentToken}; hb.auth.remember=true`)
        .expect(302);
      expect(attachment.headers.location).toBe('/');
      const garbage = await trove.http
        .get('/home')
        .set('Cookie', 'hb.auth.token=garbage; hb.auth.remember=true')
        .expect(302);
      expect(garbage.headers.location).toBe('/');
    });
  });

  describe('registering', () => {
    it('creates the account with its group, signs in and goes to /home', async () => {
      const page = await trove.http.get('/register').expect(200);
      expect(compact(page.text)).toContain('<form method="post" action="/register">');
      const email = uniqueEmail('page');
      const response = await post('/register', {
        name: 'Page User',
        email,
        password: 'long enough pass',
      });
      expect(response.status).toBe(303);
      expect(response.headers.location).toBe('/home');
      const home = await trove.http
        .get('/home')
        .set('Cookie', cookiesOf(response.headers['set-cookie']))
        .expect(200);
      expect(compact(home.text)).toContain('<h1>Signed in as Page User</h1>');
      expect(compact(home.text)).toContain('<tr><td>Page User&#39;s Home</td><td>owner</td></tr>');
    });

    it('answers bad input with 422 naming the fields, writing nothing', async () => {
      const email = uniqueEmail('bad');
      const response = await post('/register', { name: '', email, password: 'short' }).expect(422);
      expect(compact(response.text)).toContain(
        '<li>name: name must be longer than or equal to 1 characters</li>',
      );
      expect(compact(response.text)).toContain(
        '<li>password: password must be longer than or equal to 8 characters</li>',
      );
      expect(compact(response.text)).toContain(`value="${email}"`);
      expect(response.headers['set-cookie']).toBeUndefined();
      const users = await trove.query('SELECT id FROM users WHERE email = $1', [email]);
      expect(users).toEqual([]);
    });

    it('answers an e-mail address already taken with 409 and a message', async () => {
      const response = await post('/register', {
        name: 'Again',
        email: member.email,
        password: 'long enough pass',
      }).expect(409);
      expect(compact(response.text)).toContain('a user with this e-mail address already exists');
    });
  });
});

describe('Trove’s own pages with local sign-in and registration off', () => {
  let trove: TestApp;

  beforeAll(async () => {
    trove = await createTestApp({
      TROVE_OPTIONS_ALLOW_LOCAL_LOGIN: 'false',
      TROVE_OPTIONS_ALLOW_REGISTRATION: 'false',
    });
  });
  afterAll(() => trove?.close());

  it('offers no form and says that signing in is not enabled', async () => {
    const response = await trove.http.get('/').expect(200);
    expect(compact(response.text)).not.toContain('<form');
    expect(compact(response.text)).not.toContain('/register');
    expect(compact(response.text)).toContain('Signing in is not enabled on this server.');
  });

  it('refuses the forms (403) and sends /register to the sign-in page', async () => {
    const origin = trove.baseUrl;
    const signInForm = await trove.http
      .post('/sign-in')
      .set('Origin', origin)
      .type('form')
      .send({ email: 'a@example.com', password: 'whatever pass' })
      .expect(403);
    expect(compact(signInForm.text)).toContain('Signing in with a password is not enabled.');
    await trove.http
      .post('/register')
      .set('Origin', origin)
      .type('form')
      .send({ name: 'X', email: 'x@example.com', password: 'long enough pass' })
      .expect(403);
    const page = await trove.http.get('/register').expect(302);
    expect(page.headers.location).toBe('/');
    expect(await trove.query('SELECT id FROM users')).toEqual([]);
  });
});
