import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { as, useTestApp } from '../support/api.js';
import {
  cspViolations,
  launchChromium,
  seriousAccessibilityProblems,
  type ChromiumSession,
} from '../support/chromium.js';
import { writeFakeCameraVideo } from '../support/fake-camera.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import { createEntity, makeOverdue, storedCheckouts } from '../checkouts/checkout-helpers.js';
import { signInWithForm } from './console-browser.js';

/** Presses Tab until the element matching `selector` has the focus (at most 40 times). */
async function tabTo(page: Page, selector: string): Promise<void> {
  for (let step = 0; step < 40; step += 1) {
    const focused = `document.activeElement?.matches(${JSON.stringify(selector)}) ?? false`;
    if (await page.evaluate(focused)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

describe('the check-out desk in Chromium', () => {
  const app = useTestApp();
  let owner: Session;
  let colleague: Session;
  let drill: { id: string; assetId: string };
  let ladder: { id: string; assetId: string };
  let browser: ChromiumSession | undefined;
  let scratch: string;

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(os.tmpdir(), 'trove-camera-'));
    owner = await signUp(app.trove, { name: 'Ada' });
    colleague = await signUpMember(app.trove, owner, 'user');
    await as(app.trove, colleague, 'put', '/api/v1/users/self')
      .send({ name: 'Grace', email: colleague.email })
      .expect(200);
    drill = await createEntity(app.trove, owner, { name: 'Cordless drill', quantity: 1 });
    ladder = await createEntity(app.trove, owner, { name: 'Step ladder', quantity: 1 });
  });
  afterEach(async () => {
    await browser?.close();
    browser = undefined;
  });
  afterAll(() => rm(scratch, { recursive: true, force: true }));

  it('lends by asset id and takes back with the keyboard alone, through out now and overdue', async () => {
    browser = await launchChromium();
    const { page } = browser;
    await signInWithForm(page, app.trove, owner, '/console');
    expect(new URL(page.url()).pathname).toBe('/console');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // The search has the focus: type the asset id as a scanner would, ending with Enter.
    expect(await page.evaluate('document.activeElement?.id')).toBe('find');
    await page.keyboard.type(drill.assetId);
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/console/items/${drill.id}`);
    expect(await page.textContent('h1')).toBe('Cordless drill');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    await tabTo(page, '#memberId');
    await page.keyboard.type('Grace');
    await tabTo(page, '#dueOn');
    await page.keyboard.type('12312099');
    await tabTo(page, '#notes');
    await page.keyboard.type('for the shelves');
    await tabTo(page, 'form[action$="/checkouts"] button[type="submit"]');
    await page.keyboard.press('Enter');
    await page.waitForURL(/done=/);
    expect(await page.textContent('[role="status"]')).toContain(
      'Checked out 1 to Grace, due 2099-12-31.',
    );
    const [lent] = await storedCheckouts(app.trove, owner.groupId);
    expect(lent).toMatchObject({ member_id: colleague.id, due_on: '2099-12-31' });

    await page.goto(`${app.trove.baseUrl}/console?list=out`);
    expect(await page.locator('tbody tr').allInnerTexts()).toEqual([
      expect.stringMatching(/^Cordless drill\s+Grace\s+1\s+2099-12-31\s+\S+\s+open$/),
    ]);

    await makeOverdue(app.trove, String(lent.id), '2001-02-03');
    await page.goto(`${app.trove.baseUrl}/console?list=overdue`);
    expect(await page.locator('tbody tr').allInnerTexts()).toEqual([
      expect.stringMatching(/^Cordless drill\s+Grace\s+1\s+2001-02-03\s+\S+\s+overdue/),
    ]);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    await page.getByRole('link', { name: 'Cordless drill' }).first().focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/console/items/${drill.id}`);
    await tabTo(page, `#n-${String(lent.id)}`);
    await page.keyboard.type('one battery missing');
    await page.keyboard.press('Enter');
    await page.waitForURL(/done=/);
    expect(await page.textContent('[role="status"]')).toContain('Returned: all of it is back.');
    const [back] = await storedCheckouts(app.trove, owner.groupId);
    expect(back.returned_at).not.toBeNull();
    expect(String(back.notes)).toMatch(
      /^for the shelves\nReturned \d{4}-\d\d-\d\d: one battery missing$/,
    );
    expect(cspViolations(browser.console)).toEqual([]);
  });

  it('finds an item by its label’s link, pasted into the search', async () => {
    browser = await launchChromium({ viewport: { width: 375, height: 740 } });
    const { page } = browser;
    await signInWithForm(page, app.trove, owner, '/console');
    await page.fill('#find', `${app.trove.baseUrl}/item/${ladder.id}`);
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/console/items/${ladder.id}`);
    expect(await page.textContent('h1')).toBe('Step ladder');
    // Nothing wider than the phone's screen.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
  });

  it('reads a Trove label with the camera and opens its item', async () => {
    const label = await as(app.trove, owner, 'get', `/api/v1/labelmaker/item/${ladder.id}`)
      .buffer(true)
      .expect(200);
    const video = path.join(scratch, 'label.y4m');
    await writeFakeCameraVideo(label.body as Buffer, video);
    browser = await launchChromium({ fakeCamera: video });
    const { page } = browser;
    await signInWithForm(page, app.trove, owner, '/console');
    await page.getByRole('button', { name: 'Scan a label' }).click();
    await page.waitForURL(`**/console/items/${ladder.id}`, { timeout: 30_000 });
    expect(await page.textContent('h1')).toBe('Step ladder');
    expect(cspViolations(browser.console)).toEqual([]);
  });
});
