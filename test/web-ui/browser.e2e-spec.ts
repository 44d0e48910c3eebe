import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { oidcEnv, callbackUrl } from '../oidc/sign-in.js';
import { TestProvider } from '../oidc/test-provider.js';
import { cspViolations, launchChromium, type ChromiumSession } from '../support/chromium.js';
import { signUp, type Session } from '../support/factories.js';
import { writeStandInWebUi, type StandInWebUi } from '../support/stand-in-web-ui.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * Signs in at the test provider from where the browser stands (its JSON interaction pages):
 * the login as `login`, then consent given or refused, each through the browser's own cookies,
 * until the provider sends the browser back out of itself.
 */
async function completeAtProvider(
  page: Page,
  provider: TestProvider,
  login: string,
  consent: boolean,
): Promise<void> {
  for (let hop = 0; hop < 10; hop += 1) {
    const here = new URL(page.url());
    if (here.origin !== provider.origin) return;
    const details = JSON.parse((await page.textContent('body')) ?? '{}') as { prompt: string };
    const action = details.prompt === 'login' ? 'login' : consent ? 'confirm' : 'abort';
    const answer = await page.request.post(`${here.origin}${here.pathname}/${action}`, {
      form: action === 'login' ? { login } : {},
      maxRedirects: 0,
    });
    expect([303, 302], await answer.text()).toContain(answer.status());
    await page.goto(new URL(answer.headers().location, here).toString());
  }
  throw new Error('the provider kept the browser for more than 10 steps');
}

describe('Trove’s own pages in Chromium', () => {
  let idp: TestProvider;
  let trove: TestApp;
  let member: Session;
  let browser: ChromiumSession;

  beforeAll(async () => {
    idp = await TestProvider.start();
    trove = await createTestApp(oidcEnv(idp, { TROVE_OIDC_BUTTON_TEXT: 'Sign in with Acme' }));
    idp.registerClient([callbackUrl(trove)]);
    member = await signUp(trove, { name: 'Grace Hopper' });
    idp.addAccount('sso-ada', {
      email: 'ada.sso@example.com',
      email_verified: true,
      name: 'Ada SSO',
    });
  });
  afterAll(async () => {
    await trove?.close();
    await idp?.close();
  });
  beforeEach(async () => {
    browser = await launchChromium();
  });
  afterEach(() => browser?.close());

  it('signs in with the form, shows the signed-in page, and signs out', async () => {
    const { page } = browser;
    await page.goto(`${trove.baseUrl}/`);
    await page.fill('#email', member.email);
    await page.fill('#password', member.password);
    await page.click('button[type=submit]');
    await page.waitForURL(`${trove.baseUrl}/home`);
    expect(await page.textContent('h1')).toBe('Signed in as Grace Hopper');
    expect(await page.locator('tbody td').allInnerTexts()).toEqual([
      "Grace Hopper's Home",
      'owner',
    ]);
    expect(await page.getAttribute('a[href="/swagger"]', 'href')).toBe('/swagger');
    const cookies = await browser.context.cookies(trove.baseUrl);
    expect(cookies.map((cookie) => cookie.name).sort()).toEqual([
      'hb.auth.attachment_token',
      'hb.auth.remember',
      'hb.auth.session',
      'hb.auth.token',
    ]);
    const token = cookies.find((cookie) => cookie.name === 'hb.auth.token')?.value ?? '';

    await page.click('text=Sign out');
    await page.waitForURL(`${trove.baseUrl}/`);
    expect(await page.isVisible('#email')).toBe(true);
    await trove.http
      .get('/api/v1/users/self')
      .set('Authorization', `Bearer ${decodeURIComponent(token)}`)
      .expect(401);
    await page.goto(`${trove.baseUrl}/home`);
    expect(page.url()).toBe(`${trove.baseUrl}/`);
    expect(cspViolations(browser.console)).toEqual([]);
  });

  it('shows a wrong password as a message on the sign-in page', async () => {
    const { page } = browser;
    await page.goto(`${trove.baseUrl}/`);
    await page.fill('#email', member.email);
    await page.fill('#password', 'not the password');
    await page.click('button[type=submit]');
    await page.waitForSelector('[role=alert]');
    expect(await page.textContent('[role=alert]')).toBe('Wrong e-mail address or password.');
    expect(await page.inputValue('#email')).toBe(member.email);
  });

  it('signs in through single sign-on and lands on /home with the user’s name', async () => {
    const { page } = browser;
    await page.goto(`${trove.baseUrl}/`);
    await page.click('text=Sign in with Acme');
    await page.waitForURL((url) => url.origin === idp.origin);
    await completeAtProvider(page, idp, 'sso-ada', true);
    await page.waitForURL(`${trove.baseUrl}/home`);
    expect(await page.textContent('h1')).toBe('Signed in as Ada SSO');
    expect(await page.textContent('p.muted')).toBe('ada.sso@example.com');
    expect(cspViolations(browser.console)).toEqual([]);
  });

  it('shows a refused single sign-on as a message', async () => {
    const { page } = browser;
    await page.goto(`${trove.baseUrl}/`);
    await page.click('text=Sign in with Acme');
    await page.waitForURL((url) => url.origin === idp.origin);
    await completeAtProvider(page, idp, 'sso-ada', false);
    await page.waitForURL(`${trove.baseUrl}/?oidc_error=oidc_auth_failed`);
    expect(await page.textContent('[role=alert]')).toBe(
      'Single sign-on did not succeed. Try again, or ask your administrator if it keeps failing.',
    );
    const cookies = await browser.context.cookies(trove.baseUrl);
    expect(cookies.filter((cookie) => cookie.name.startsWith('hb.auth.'))).toEqual([]);
  });
});

/** What the stand-in app recorded (expressions evaluated in the page). */
const APP_STATE = '({ ...document.getElementById("app").dataset })';
const VIOLATIONS = 'window.violations';

describe('the web UI directory in Chromium', () => {
  let ui: StandInWebUi;
  let trove: TestApp;
  let browser: ChromiumSession;

  beforeAll(async () => {
    ui = await writeStandInWebUi();
    trove = await createTestApp({ TROVE_WEB_UI_DIR: ui.dir });
  });
  afterAll(async () => {
    await trove?.close();
    await ui?.remove();
  });
  beforeEach(async () => {
    browser = await launchChromium();
  });
  afterEach(() => browser?.close());

  it('loads the app at a deep link, which calls the API from its own origin without a CSP violation', async () => {
    const { page } = browser;
    await page.goto(`${trove.baseUrl}/item/0b4f7c36-0000-4000-8000-000000000000`);
    await page.waitForSelector('#app[data-status][data-blob-image][data-data-image]');
    expect(await page.evaluate(APP_STATE)).toEqual({
      path: '/item/0b4f7c36-0000-4000-8000-000000000000',
      inline: 'true',
      status: 'healthy',
      blobImage: 'loaded',
      dataImage: 'loaded',
    });
    expect(await page.textContent('#app')).toBe('status true');
    expect(await page.evaluate(VIOLATIONS)).toEqual([]);
    expect(cspViolations(browser.console)).toEqual([]);
  });

  it('shows the console’s link on every screen of the app, leading to the console', async () => {
    const { page } = browser;
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${trove.baseUrl}/locations`);
      const link = page.getByRole('link', { name: 'Trove console' });
      const box = await link.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      expect(box!.y + box!.height).toBeLessThanOrEqual(800);
    }
    await page.getByRole('link', { name: 'Trove console' }).click();
    await page.waitForURL(/\/sign-in/);
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(
      '/sign-in?next=%2Fconsole',
    );
    expect(await page.evaluate(VIOLATIONS)).toBeUndefined();
    expect(cspViolations(browser.console)).toEqual([]);
  });

  it('refuses a connection to another origin (the policy is enforced)', async () => {
    const { page } = browser;
    await page.goto(`${trove.baseUrl}/locations?probe=outside`);
    await page.waitForSelector('#app[data-outside][data-status]');
    expect(await page.evaluate(VIOLATIONS)).toEqual(['connect-src http://127.0.0.1:9/elsewhere']);
    const reported = cspViolations(browser.console);
    expect(reported.length).toBeGreaterThan(0);
    expect(reported.every((message) => message.includes('http://127.0.0.1:9/elsewhere'))).toBe(
      true,
    );
  });
});
