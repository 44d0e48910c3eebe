import { readFile } from 'node:fs/promises';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EntityBody } from '../support/api.js';
import {
  cspViolations,
  launchChromium,
  seriousAccessibilityProblems,
  type ChromiumSession,
} from '../support/chromium.js';
import { signUp, type Session } from '../support/factories.js';
import { makeEntity, putStock, useTestApp } from '../stock/stock-helpers.js';
import { signInWithForm } from './console-browser.js';

describe('the stock page in Chromium', () => {
  const app = useTestApp();
  let owner: Session;
  let coffee: EntityBody;
  let browser: ChromiumSession | undefined;

  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    const pantry = await makeEntity(app.trove, owner, { name: 'Pantry', location: true });
    coffee = await makeEntity(app.trove, owner, {
      name: 'Coffee',
      parentId: pantry.id,
      quantity: 5,
    });
    await putStock(app.trove, owner, coffee.id, { minQuantity: 2, reorderQuantity: 6 });
    const tea = await makeEntity(app.trove, owner, { name: 'Tea', quantity: 4 });
    await putStock(app.trove, owner, tea.id, { minQuantity: 1, expiresOn: '2001-01-01' });
  });
  afterEach(async () => {
    await browser?.close();
    browser = undefined;
  });

  it('the stock minimum reached puts the item on the shopping list and its CSV', async () => {
    browser = await launchChromium();
    const { page } = browser;
    await signInWithForm(page, app.trove, owner, '/console/stock');
    expect(await page.textContent('h1')).toBe('Stock');
    expect(await page.locator('tbody tr').allInnerTexts()).toEqual([
      expect.stringMatching(/^Coffee\s+Pantry\s+5\s+2\s+6\s+—\s+Adjust$/),
      expect.stringMatching(/^Tea\s+—\s+4\s+1\s+—\s+2001-01-01\s+Adjust$/),
    ]);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    await page.getByRole('link', { name: 'At or below minimum' }).click();
    await page.waitForURL(/list=low/);
    expect(await page.locator('tbody tr').count()).toBe(0);
    expect(await page.textContent('main')).toContain('Nothing here.');

    await page.getByRole('link', { name: 'Stocked items' }).click();
    await page.getByRole('link', { name: 'Adjust Coffee' }).click();
    await page.waitForURL(`**/console/stock/items/${coffee.id}`);
    expect(await page.textContent('h1')).toBe('Stock of Coffee');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    await page.getByLabel('Or add (a negative number takes away)').fill('-3');
    await page.getByLabel('Reason').fill('used for the party');
    await page.getByRole('button', { name: 'Adjust' }).click();
    await page.waitForURL(/done=/);
    expect(await page.textContent('[role="status"]')).toBe(
      'Adjusted from 5 to 2: used for the party. At or below its minimum (2): on the shopping list.',
    );
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    await page.getByRole('link', { name: 'Back to stock' }).click();
    await page.getByRole('link', { name: 'At or below minimum' }).click();
    await page.waitForURL(/list=low/);
    expect(await page.locator('tbody tr').allInnerTexts()).toEqual([
      expect.stringMatching(/^Coffee\s+—\s+Pantry\s+2\s+2\s+6\s+Adjust$/),
    ]);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('low-stock.csv');
    const csv = await readFile(await download.path(), 'utf8');
    expect(csv.split('\n')).toEqual([
      'Name,Asset ID,Location,Quantity,Minimum,Reorder',
      'Coffee,,Pantry,2,2,6',
      '',
    ]);

    await page.getByRole('link', { name: 'Expiring' }).click();
    await page.getByLabel('Expiring within (days)').fill('7');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/within=7/);
    expect(await page.locator('tbody tr').allInnerTexts()).toEqual([
      expect.stringMatching(/^Tea\s+—\s+4\s+2001-01-01 expired\s+-\d+\s+Adjust$/),
    ]);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    expect(cspViolations(browser.console)).toEqual([]);
  });

  it('is usable at 375 px wide', async () => {
    browser = await launchChromium({ viewport: { width: 375, height: 800 } });
    const { page } = browser;
    await signInWithForm(page, app.trove, owner, '/console/stock');
    expect(await page.locator('tbody tr').count()).toBe(2);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await page.goto(`${app.trove.baseUrl}/console/stock/items/${coffee.id}`);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
  });
});
