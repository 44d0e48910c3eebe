import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import {
  cspViolations,
  launchChromium,
  seriousAccessibilityProblems,
  type ChromiumSession,
} from '../support/chromium.js';
import { signIn, signUp, type Session } from '../support/factories.js';
import { signInWithForm } from './console-browser.js';

const jwtId = (token: string): string =>
  (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { jti: string }).jti;

describe('your account in Chromium', () => {
  const app = useTestApp();
  let user: Session;
  let browser: ChromiumSession | undefined;

  beforeAll(async () => {
    user = await signUp(app.trove, { name: 'Ada' });
  });
  afterEach(async () => {
    await browser?.close();
    browser = undefined;
  });

  const self = (authorization: string) =>
    app.trove.http.get('/api/v1/users/self').set('Authorization', authorization);

  it('creates an API key shown once, which works until revoked in the page; ends another session', async () => {
    browser = await launchChromium();
    const { page } = browser;
    await signInWithForm(page, app.trove, user, '/console/account');
    expect(await page.textContent('h1')).toBe('Your account');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    await page.getByLabel('Name', { exact: true }).fill('backup script');
    await page.getByRole('button', { name: 'Create the key' }).click();
    await page.waitForSelector('#new-key');
    // The answer to the form itself, no redirect: the key is in no address.
    expect(new URL(page.url()).pathname).toBe('/console/account/api-keys');
    expect(page.url()).not.toContain('trove_');
    expect(await page.textContent('#new-key-heading')).toContain('backup script');
    expect(await page.textContent('.notice strong')).toBe('Copy it now: it is not shown again.');
    const secret = await page.inputValue('#new-key');
    expect(secret).toMatch(/^trove_[\w-]{43}$/);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await self(secret).expect(200);

    await page.goto(`${app.trove.baseUrl}/console/account`);
    expect(await page.content()).not.toContain(secret);
    await page.getByRole('button', { name: 'Revoke the API key backup script' }).click();
    await page.waitForURL(/done=/);
    expect(await page.textContent('[role="status"]')).toBe('Revoked the API key.');
    expect(await page.getByRole('cell', { name: 'backup script' }).count()).toBe(0);
    await self(secret).expect(401);

    // A session signed in elsewhere, through the API, is ended from the page.
    const elsewhere = await signIn(app.trove, user.email, user.password);
    await self(elsewhere.authorization).expect(200);
    await page.reload();
    const endButtons = page.getByRole('button', { name: /^End the session signed in/ });
    expect(await endButtons.count()).toBe(2);
    await page
      .locator(`form[action="/console/account/sessions/${jwtId(elsewhere.token)}/end"] button`)
      .click();
    await page.waitForURL(/done=/);
    expect(await page.textContent('[role="status"]')).toBe('Ended the session.');
    await self(elsewhere.authorization).expect(401);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // All the others end; the page's own session stays.
    await page.getByRole('button', { name: 'End all other sessions' }).click();
    await page.waitForURL(/done=/);
    expect(await page.textContent('[role="status"]')).toBe('Ended every session but this one.');
    await self(user.authorization).expect(401);
    expect(await page.getByRole('button', { name: 'End all other sessions' }).count()).toBe(0);
    expect(await page.textContent('h1')).toBe('Your account');
    expect(cspViolations(browser.console)).toEqual([]);
  });

  it('is usable at 375 px, the new key included', async () => {
    browser = await launchChromium({ viewport: { width: 375, height: 800 } });
    const { page } = browser;
    await signInWithForm(page, app.trove, user, '/console/account');
    await page.getByLabel('Name', { exact: true }).fill('phone script');
    await page.getByLabel('Never expires').check();
    await page.getByRole('button', { name: 'Create the key' }).click();
    await page.waitForSelector('#new-key');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await self(await page.inputValue('#new-key')).expect(200);
    expect(cspViolations(browser.console)).toEqual([]);
  });
});
