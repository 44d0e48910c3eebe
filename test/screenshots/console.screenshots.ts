import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, useTestApp } from '../support/api.js';
import {
  cspViolations,
  launchChromium,
  seriousAccessibilityProblems,
  type ChromiumSession,
} from '../support/chromium.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import { checkOut, createEntity, FUTURE, makeOverdue } from '../checkouts/checkout-helpers.js';
import { createLocation } from '../console/bulk-helpers.js';
import { signInWithForm } from '../console/console-browser.js';

/**
 * `npm run screenshots`: every console page at 1280 px and 375 px wide, as a signed-in owner who is
 * also an instance administrator sees it, over a small organisation's inventory, written to
 * `docs/screenshots/console-<page>-<width>.png` for docs/console.md. Each page must answer, keep
 * to its Content-Security-Policy and pass axe-core, or no picture of it is taken.
 */

const OUT = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const ADMIN_EMAIL = 'ada@example.com';
const WIDTHS = [1280, 375] as const;

interface Shot {
  name: string;
  path: () => string;
}

describe('console screenshots', () => {
  const app = useTestApp({ TROVE_ADMIN_EMAILS: ADMIN_EMAIL });
  let owner: Session;
  let drill: { id: string; assetId: string };
  let batteries: { id: string };
  let shelf: { id: string };
  const shots: Shot[] = [
    { name: 'desk', path: () => '/console' },
    { name: 'desk-overdue', path: () => '/console?list=overdue' },
    { name: 'item', path: () => `/console/items/${drill.id}` },
    { name: 'stock', path: () => '/console/stock' },
    { name: 'stock-shopping-list', path: () => '/console/stock?list=low' },
    { name: 'stock-expiring', path: () => '/console/stock?list=expiring&within=30' },
    { name: 'stock-item', path: () => `/console/stock/items/${batteries.id}` },
    { name: 'history', path: () => '/console/history' },
    { name: 'history-item', path: () => `/console/history?entity=${batteries.id}` },
    { name: 'bulk', path: () => '/console/bulk' },
    { name: 'bulk-chosen', path: () => `/console/bulk?location=${shelf.id}` },
    { name: 'admin', path: () => '/console/admin' },
    { name: 'admin-users', path: () => '/console/admin/users' },
    { name: 'admin-groups', path: () => '/console/admin/groups' },
    { name: 'account', path: () => '/console/account' },
  ];

  beforeAll(async () => {
    await mkdir(OUT, { recursive: true });
    owner = await signUp(app.trove, { name: 'Ada Lovelace', email: ADMIN_EMAIL });
    const colleague = await signUpMember(app.trove, owner, 'user');
    await as(app.trove, colleague, 'put', '/api/v1/users/self')
      .send({ name: 'Grace Hopper', email: colleague.email })
      .expect(200);
    drill = await createEntity(app.trove, owner, { name: 'Cordless drill', quantity: 2 });
    const ladder = await createEntity(app.trove, owner, { name: 'Step ladder', quantity: 1 });
    const projector = await createEntity(app.trove, owner, { name: 'Projector', quantity: 1 });
    await createEntity(app.trove, owner, { name: 'Laptop 14"', quantity: 3 });
    await checkOut(app.trove, owner, drill.id, {
      memberId: colleague.id,
      dueOn: FUTURE,
      notes: 'For the shelf in room 2',
    });
    await checkOut(app.trove, owner, ladder.id, { borrower: 'Facilities', dueOn: FUTURE });
    const late = await checkOut(app.trove, owner, projector.id, { borrower: 'Marketing' });
    await makeOverdue(app.trove, late.id);
    batteries = await createEntity(app.trove, owner, { name: 'AA batteries', quantity: 12 });
    const gloves = await createEntity(app.trove, owner, { name: 'Nitrile gloves', quantity: 40 });
    const sanitiser = await createEntity(app.trove, owner, { name: 'Hand sanitiser', quantity: 3 });
    const soon = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    for (const [item, stock] of [
      [batteries, { minQuantity: 8, reorderQuantity: 24 }],
      [gloves, { minQuantity: 20, expiresOn: soon }],
      [sanitiser, { minQuantity: 2, expiresOn: '2026-01-31' }],
    ] as const) {
      await as(app.trove, owner, 'put', `/api/v1/entities/${item.id}/stock`)
        .send(stock)
        .expect(200);
    }
    const room = await createLocation(app.trove, owner, 'Store room');
    shelf = await createLocation(app.trove, owner, 'Shelf B', room.id);
    for (const name of ['Extension lead', 'HDMI cable', 'USB-C charger', 'Label printer']) {
      await createEntity(app.trove, owner, { name, parentId: shelf.id });
    }
    await as(app.trove, owner, 'post', '/api/v1/groups/invitations')
      .send({ uses: 1, expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString() })
      .expect(200);
    const leaver = await signUpMember(app.trove, owner, 'viewer');
    await as(app.trove, owner, 'post', `/api/v1/admin/users/${leaver.id}/disable`).expect(204);
    await signUp(app.trove, { name: 'Workshop team' });
    await as(app.trove, owner, 'post', '/api/v1/users/self/api-keys')
      .send({ name: 'Inventory script' })
      .expect(201);
    await as(app.trove, owner, 'post', `/api/v1/entities/${batteries.id}/stock/adjustments`)
      .send({ change: -5, reason: 'Used for the wireless keyboards' })
      .expect(201);
  });

  let browser: ChromiumSession | undefined;
  afterAll(() => browser?.close());

  for (const width of WIDTHS) {
    it(`takes every page at ${width} px`, async () => {
      await browser?.close();
      browser = await launchChromium({ viewport: { width, height: 900 } });
      const { page } = browser;
      await signInWithForm(page, app.trove, owner, '/console');
      for (const shot of shots) {
        const response = await page.goto(`${app.trove.baseUrl}${shot.path()}`);
        expect([shot.name, response?.status()]).toEqual([shot.name, 200]);
        expect([shot.name, await seriousAccessibilityProblems(page)]).toEqual([shot.name, []]);
        await page.screenshot({ path: `${OUT}console-${shot.name}-${width}.png`, fullPage: true });
      }
      expect(cspViolations(browser.console)).toEqual([]);
    });
  }
});
