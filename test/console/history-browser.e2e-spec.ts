import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { as, createEntity, useTestApp, type EntityBody } from '../support/api.js';
import {
  cspViolations,
  launchChromium,
  seriousAccessibilityProblems,
  type ChromiumSession,
} from '../support/chromium.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import { signInWithForm } from './console-browser.js';

describe('the history in Chromium', () => {
  const app = useTestApp();
  let owner: Session;
  let colleague: Session;
  let drill: EntityBody;
  let browser: ChromiumSession | undefined;

  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    colleague = await signUpMember(app.trove, owner, 'user');
    await as(app.trove, colleague, 'put', '/api/v1/users/self')
      .send({ name: 'Grace', email: colleague.email })
      .expect(200);
    drill = await createEntity(app.trove, owner, { name: 'Drill', quantity: 1 });
    await as(app.trove, colleague, 'put', `/api/v1/entities/${drill.id}`)
      .send({ name: 'Cordless drill', quantity: 3, assetId: drill.assetId })
      .expect(200);
  });
  afterEach(async () => {
    await browser?.close();
    browser = undefined;
  });

  /** The rows of the fields table of the page's first (newest) change. */
  const newestFields = (session: ChromiumSession) =>
    session.page.locator('li.change').first().locator('tbody tr').allInnerTexts();

  it('shows an entity’s history with a changed field before and after, from its item page', async () => {
    browser = await launchChromium();
    const { page } = browser;
    await signInWithForm(page, app.trove, colleague, `/console/items/${drill.id}`);
    expect(await page.textContent('h1')).toBe('Cordless drill');
    await page.getByRole('link', { name: 'Its history' }).click();
    await page.waitForURL(`**/console/history?entity=${drill.id}`);
    expect(await page.textContent('h1')).toBe('History');
    expect(await page.locator('li.change > p').allInnerTexts()).toEqual([
      expect.stringMatching(/ · Grace updated Cordless drill \(PUT \/api\/v1\/entities\/\{id\}\)/),
      expect.stringMatching(/ · Ada created Drill \(POST \/api\/v1\/entities\)/),
    ]);
    expect((await newestFields(browser)).map((row) => row.split('\t'))).toEqual([
      ['name', 'Drill', 'Cordless drill'],
      ['quantity', '1', '3'],
    ]);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    expect(cspViolations(browser.console)).toEqual([]);
  });

  it('filters the group’s changes by member and kind, for an owner, at 375 px', async () => {
    browser = await launchChromium({ viewport: { width: 375, height: 800 } });
    const { page } = browser;
    await signInWithForm(page, app.trove, owner, '/console/history');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await page.getByLabel('Member').selectOption({ label: 'Grace' });
    await page.getByLabel('Kind').selectOption('update');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/kind=update/);
    expect(new URL(page.url()).searchParams.get('member')).toBe(colleague.id);
    expect(await page.locator('li.change > p').allInnerTexts()).toEqual([
      expect.stringMatching(/ · Grace updated Cordless drill /),
    ]);
    expect((await newestFields(browser)).map((row) => row.split('\t'))).toEqual([
      ['name', 'Drill', 'Cordless drill'],
      ['quantity', '1', '3'],
    ]);
    // Nothing wider than the phone's screen.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    expect(cspViolations(browser.console)).toEqual([]);
  });
});
