import type { Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { as, useTestApp } from '../support/api.js';
import {
  cspViolations,
  launchChromium,
  seriousAccessibilityProblems,
  type ChromiumSession,
} from '../support/chromium.js';
import { signUp, type Session } from '../support/factories.js';
import { createItems, createLocation } from './bulk-helpers.js';
import { signInWithForm } from './console-browser.js';

/** The page's first status message, its white space folded. */
async function statusOf(page: Page): Promise<string> {
  return (await page.getByRole('status').first().innerText()).replace(/\s+/g, ' ').trim();
}

describe('bulk changes in Chromium', () => {
  const app = useTestApp();
  let owner: Session;
  let shelf: { id: string; name: string };
  let workshop: { id: string; name: string };
  let items: string[];
  let browser: ChromiumSession | undefined;

  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    const storeroom = await createLocation(app.trove, owner, 'Storeroom');
    shelf = await createLocation(app.trove, owner, 'Shelf A', storeroom.id);
    workshop = await createLocation(app.trove, owner, 'Workshop');
    items = await createItems(app.trove, owner, 'Part', 200, shelf.id);
  });
  afterEach(async () => {
    await browser?.close();
    browser = undefined;
  });

  it('moves the 200 items on a shelf to another room: choose, preview, apply, result', async () => {
    browser = await launchChromium();
    const { page } = browser;
    await signInWithForm(page, app.trove, owner, '/console/bulk');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // Choose by location.
    await page.getByLabel('Directly in').selectOption(shelf.id);
    await page.getByRole('button', { name: 'Show matching' }).click();
    await page.waitForURL(`**/console/bulk?**location=${shelf.id}**`);
    expect(await statusOf(page)).toBe('200 entities match.');
    expect(await page.locator('tbody tr').count()).toBe(50);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // The change: move to the workshop, for all that match.
    await page.getByLabel('Move to a location').check();
    await page.getByLabel('Move to', { exact: true }).selectOption(workshop.id);
    await page.getByRole('button', { name: 'Preview all 200 matching' }).click();
    await page.waitForURL('**/console/bulk/preview');
    expect(await page.textContent('h1')).toBe('Preview of the bulk change');
    expect(await statusOf(page)).toBe('Move to Workshop: 200 entities.');
    expect(await page.locator('tbody tr').count()).toBe(100);
    expect(await page.locator('tbody tr').first().innerText()).toMatch(
      /^Part 001\s+\S+\s+Shelf A\s+Workshop\s+changes$/,
    );
    expect(await page.locator('.pager').textContent()).toContain('Page 1 of 2 · 200 in all');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // The second page of the preview, then apply.
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL('**/console/bulk/preview');
    expect(await page.locator('tbody tr').last().innerText()).toMatch(/^Part 200\s/);
    await page.getByRole('button', { name: 'Apply to 200 entities' }).click();
    await page.waitForURL('**/console/bulk/result?**');
    expect(await page.textContent('h1')).toBe('Bulk change done');
    expect(await statusOf(page)).toBe('200 moved to Workshop.');
    expect(await page.locator('dl').innerText()).toMatch(
      /^Chosen\s+200\s+Changed\s+200\s+Left alone\s+0$/,
    );
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // Every one of them is in the workshop now, as the API tells.
    const listed = (
      await as(app.trove, owner, 'get', `/api/v1/entities?parentIds=${workshop.id}`).expect(200)
    ).body as { total: number; items: { id: string }[] };
    expect(listed.total).toBe(200);
    expect(listed.items.map((item) => item.id).sort()).toEqual([...items].sort());
    const left = (
      await as(app.trove, owner, 'get', `/api/v1/entities?parentIds=${shelf.id}`).expect(200)
    ).body as { total: number };
    expect(left.total).toBe(0);

    await page.getByRole('link', { name: 'See what is in that location now' }).click();
    await page.waitForURL(`**/console/bulk?location=${workshop.id}**`);
    expect(await statusOf(page)).toBe('200 entities match.');
    expect(cspViolations(browser.console)).toEqual([]);
  });

  it('is usable on a phone: the choice and its preview at 375 px', async () => {
    browser = await launchChromium({ viewport: { width: 375, height: 800 } });
    const { page } = browser;
    await signInWithForm(page, app.trove, owner, '/console/bulk?q=Part+00');
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await page.getByRole('checkbox', { name: 'Choose Part 001' }).check();
    await page.getByRole('checkbox', { name: 'Choose Part 002' }).check();
    await page.getByLabel('Archive', { exact: true }).check();
    await page.getByRole('button', { name: 'Preview the ticked ones' }).click();
    await page.waitForURL('**/console/bulk/preview');
    expect(await page.locator('tbody tr').count()).toBe(2);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
  });
});
