import { InstanceBackupsService } from '../../src/operations/instance-backups/instance-backups.service.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { as, useTestApp } from '../support/api.js';
import {
  cspViolations,
  launchChromium,
  seriousAccessibilityProblems,
  type ChromiumSession,
} from '../support/chromium.js';
import { signUp, signUpMember, uniqueEmail, type Session } from '../support/factories.js';
import { signInWithForm } from './console-browser.js';

const ADMIN_EMAIL = uniqueEmail('root');

describe('administration in Chromium', () => {
  const app = useTestApp({ TROVE_ADMIN_EMAILS: ADMIN_EMAIL });
  let admin: Session;
  let grace: Session;
  let browsers: ChromiumSession[] = [];

  beforeAll(async () => {
    admin = await signUp(app.trove, { name: 'Root', email: ADMIN_EMAIL });
    grace = await signUp(app.trove, { name: 'Grace' });
    await signUpMember(app.trove, admin, 'viewer');
  });
  afterEach(async () => {
    for (const browser of browsers) await browser.close();
    browsers = [];
  });

  const launch = async (viewport?: { width: number; height: number }) => {
    const browser = await launchChromium(viewport ? { viewport } : {});
    browsers.push(browser);
    return browser;
  };

  it('an instance administrator disables a user: their open page and their API key stop working', async () => {
    // Grace has the console open in her own browser, and an API key.
    const graceBrowser = await launch();
    await signInWithForm(graceBrowser.page, app.trove, grace, '/console');
    const created = await as(app.trove, grace, 'post', '/api/v1/users/self/api-keys')
      .send({ name: 'script' })
      .expect(201);
    const key = `Bearer ${(created.body as { token: string }).token}`;
    await app.trove.http.get('/api/v1/users/self').set('Authorization', key).expect(200);

    // The administrator finds her and disables her account.
    const { page, console: messages } = await launch();
    await signInWithForm(page, app.trove, admin, '/console/admin');
    expect(await page.textContent('h1')).toBe('Administration');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await page.getByRole('link', { name: 'Every user' }).first().click();
    await page.waitForURL('**/console/admin/users');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await page.getByLabel('Find users by name or e-mail').fill('grace');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\/console\/admin\/users\?q=grace/);
    await page.getByRole('button', { name: 'Disable Grace' }).click();
    await page.waitForURL(/done=/);
    expect(await page.textContent('[role="status"]')).toContain('Disabled Grace.');
    expect(await page.getByRole('button', { name: 'Enable Grace' }).count()).toBe(1);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // Her page, reloaded, asks her to sign in; her API key is refused.
    await graceBrowser.page.reload();
    await graceBrowser.page.waitForURL(/\/sign-in\?next=%2Fconsole/);
    const refused = await app.trove.http.get('/api/v1/users/self').set('Authorization', key);
    expect(refused.status).toBe(401);
    // Signing in again is refused while the account is disabled.
    await graceBrowser.page.getByLabel('E-mail').fill(grace.email);
    await graceBrowser.page.getByLabel('Password').fill(grace.password);
    await graceBrowser.page.getByRole('button', { name: 'Sign in' }).click();
    await graceBrowser.page.waitForLoadState();
    expect(await graceBrowser.page.textContent('body')).toContain('This account is disabled.');

    // Enabled again, she can sign in.
    await page.getByRole('button', { name: 'Enable Grace' }).click();
    await page.waitForURL(/done=Enabled/);
    await signInWithForm(graceBrowser.page, app.trove, grace, '/console');
    expect(cspViolations(messages)).toEqual([]);
    expect(cspViolations(graceBrowser.console)).toEqual([]);
  });

  it('the group’s members, invitations and the instance lists at 375 px', async () => {
    const { page, console: messages } = await launch({ width: 375, height: 800 });
    await signInWithForm(page, app.trove, admin, '/console/admin');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);

    await page.getByLabel('How many people may join with it').fill('2');
    await page.getByRole('button', { name: 'Create an invitation' }).click();
    await page.waitForURL('**/console/admin/invitations');
    expect(await page.textContent('h1')).toBe('Invitation created');
    expect(await page.inputValue('#invitation-token')).toMatch(/\S{20,}/);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await page.getByRole('link', { name: 'Back to administration' }).click();
    await page.waitForURL('**/console/admin');
    await page.getByRole('button', { name: 'Delete this invitation' }).click();
    await page.waitForURL(/done=/);
    expect(await page.textContent('[role="status"]')).toContain('Deleted the invitation.');

    await page.getByRole('link', { name: 'Every group' }).first().click();
    await page.waitForURL('**/console/admin/groups');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);

    await app.trove.app.get(InstanceBackupsService).run('command');
    await page.goto(`${app.trove.baseUrl}/console/admin`);
    await page.getByRole('link', { name: 'Instance backups' }).click();
    await page.waitForURL('**/console/admin/backups');
    expect(await page.textContent('h1')).toBe('Instance backups');
    expect(await page.textContent('tbody')).toContain('passed');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    expect(cspViolations(messages)).toEqual([]);
  });
});
