import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/platform/calendar/calendar-day.js';
import { RemindersService } from '../../src/operations/reminders/reminders.service.js';
import { signUp, type Session } from '../support/factories.js';
import {
  addNotifier,
  as,
  makeEntity,
  putStock,
  settled,
  startWebhook,
  useTestApp,
  type WebhookStandIn,
} from './stock-helpers.js';

/** A fixed day, so nothing depends on the day of the run; runs are started by hand at noon. */
const DAY = '2031-05-10';
const noonOf = (day: string) => new Date(`${day}T12:00:00Z`);

describe('daily reminders of expiring stock', () => {
  let webhook: WebhookStandIn;
  let ada: Session;
  let adaGroup: string;

  // The scheduled run is at an hour of another day's zone that the test never reaches on its
  // own: runs here are started by hand for fixed days.
  const app = useTestApp({
    TROVE_REMINDERS_TIME_ZONE: 'UTC',
    TROVE_REMINDERS_HOUR: String((new Date().getUTCHours() + 12) % 24),
    TROVE_REMINDERS_EXPIRY_DAYS: '14',
    TROVE_OUTBOUND_ALLOW_NETS: '127.0.0.1/32',
  });
  beforeAll(async () => {
    webhook = await startWebhook();
    ada = await signUp(app.trove, { name: 'Ada' });
    adaGroup = (
      (await as(app.trove, ada, 'get', '/api/v1/groups').expect(200)).body as { name: string }
    ).name;
    await addNotifier(app.trove, ada, `generic+http://127.0.0.1:${webhook.port}/ada`);
    const stock = async (name: string, expiresOn: string, archived = false) => {
      const entity = await makeEntity(app.trove, ada, { name, archived });
      await putStock(app.trove, ada, entity.id, { expiresOn });
      return entity;
    };
    await stock('Milk', DAY);
    await stock('Cheese', addDays(DAY, 14));
    await stock('Ham', addDays(DAY, 15));
    await stock('Eggs', addDays(DAY, -3));
    await stock('Old jam', addDays(DAY, -1), true);
    const eve = await signUp(app.trove, { name: 'Eve' });
    const theirs = await makeEntity(app.trove, eve, { name: 'Their milk' });
    await putStock(app.trove, eve, theirs.id, { expiresOn: DAY });
  });
  afterAll(async () => {
    await webhook?.close();
  });

  const remind = (day: string) => app.trove.app.get(RemindersService).remind(noonOf(day));

  it('lists what expires within the configured days and what has expired, each expiry once', async () => {
    const run = await remind(DAY);
    expect(run).toEqual({ day: DAY, groups: 2, reminded: 1 });
    await settled(app.trove);
    expect(webhook.received.map((delivery) => delivery.body)).toEqual([
      {
        title: `${adaGroup}: reminders for ${DAY}`,
        message: [
          'Expiring within 14 days:',
          '- Milk: today',
          `- Cheese: ${addDays(DAY, 14)}`,
          '',
          'Expired:',
          `- Eggs: ${addDays(DAY, -3)}`,
        ].join('\n'),
      },
    ]);

    // The next day only Ham has come into the window; the rest were announced.
    const next = addDays(DAY, 1);
    expect(await remind(next)).toMatchObject({ reminded: 1 });
    await settled(app.trove);
    expect(webhook.received.slice(1).map((delivery) => delivery.body)).toEqual([
      {
        title: `${adaGroup}: reminders for ${next}`,
        message: `Expiring within 14 days:\n- Ham: ${addDays(DAY, 15)}`,
      },
    ]);

    // Nothing new: no message. A changed expiry day is announced again.
    expect(await remind(addDays(DAY, 2))).toMatchObject({ reminded: 0 });
    const [milk] = await app.trove.query<{ id: string }>(
      `SELECT id FROM entities WHERE group_id = $1 AND name = 'Milk'`,
      [ada.groupId],
    );
    await putStock(app.trove, ada, milk.id, { expiresOn: addDays(DAY, 5) });
    expect(await remind(addDays(DAY, 3))).toMatchObject({ reminded: 1 });
    await settled(app.trove);
    expect(webhook.received.slice(2).map((delivery) => delivery.body)).toEqual([
      {
        title: `${adaGroup}: reminders for ${addDays(DAY, 3)}`,
        message: `Expiring within 14 days:\n- Milk: ${addDays(DAY, 5)}`,
      },
    ]);
  });
});
