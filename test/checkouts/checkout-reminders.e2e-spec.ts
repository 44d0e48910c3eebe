import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/platform/calendar/calendar-day.js';
import { RemindersService } from '../../src/operations/reminders/reminders.service.js';
import { addNotifier, startWebhook, type WebhookStandIn } from '../notifiers/notifier-helpers.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import {
  as,
  checkOut,
  createEntity,
  FUTURE,
  makeOverdue,
  returnCheckout,
  type CheckoutBody,
} from './checkout-helpers.js';

async function waitFor(condition: () => boolean, seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not met within ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * The daily reminder of a day `DAY` well ahead, with due days set relative to it in the table,
 * as they would be once that day comes; the scheduled run of the real day never sees them as
 * overdue.
 */
describe('daily reminders of overdue check-outs', () => {
  const DAY = '2990-05-10';
  let trove: TestApp;
  let webhook: WebhookStandIn;
  let ada: Session;
  let bob: Session;
  let adaGroup: string;
  let drill: CheckoutBody;
  let chairs: CheckoutBody;

  const to = (path: string) => webhook.received.filter((delivery) => delivery.path === path);
  const remind = (day: string) =>
    trove.app.get(RemindersService).remind(new Date(`${day}T12:00:00Z`));
  const notify = (session: Session, path: string) =>
    addNotifier(trove, session, `generic+http://127.0.0.1:${webhook.port}${path}`);
  const lend = async (session: Session, name: string, body: Record<string, unknown>) => {
    const entity = await createEntity(trove, session, { name, quantity: 3 });
    return checkOut(trove, session, entity.id, { dueOn: FUTURE, ...body });
  };

  beforeAll(async () => {
    webhook = await startWebhook();
    const hour = (new Date().getUTCHours() + 12) % 24;
    trove = await createTestApp({
      TROVE_REMINDERS_HOUR: String(hour),
      TROVE_REMINDERS_TIME_ZONE: 'UTC',
      TROVE_OUTBOUND_ALLOW_NETS: '127.0.0.1/32',
    });
    ada = await signUp(trove, { name: 'Ada' });
    bob = await signUpMember(trove, ada, 'user');
    adaGroup = (
      (await as(trove, ada, 'get', '/api/v1/groups').expect(200)).body as { name: string }
    ).name;
    await notify(ada, '/ada');

    drill = await lend(ada, 'Drill', { memberId: bob.id });
    await makeOverdue(trove, drill.id, addDays(DAY, -3));
    chairs = await lend(ada, 'Chairs', { quantity: 3, borrower: 'Grace' });
    await returnCheckout(trove, ada, chairs, { quantity: 1 });
    await makeOverdue(trove, chairs.id, addDays(DAY, -5));
    // Due that very day: not overdue yet.
    const tent = await lend(ada, 'Tent', { borrower: 'Cy' });
    await makeOverdue(trove, tent.id, DAY);
    // Back already, though late.
    const saw = await lend(ada, 'Saw', { borrower: 'Dee' });
    await returnCheckout(trove, ada, saw);
    await makeOverdue(trove, saw.id, addDays(DAY, -9));

    // Eve's group has a notifier and nothing overdue; Cy's has something overdue and no notifier.
    const eve = await signUp(trove, { name: 'Eve' });
    await notify(eve, '/eve');
    await lend(eve, 'Boat', { borrower: 'Zed' });
    const cy = await signUp(trove, { name: 'Cy' });
    const cart = await lend(cy, 'Cart', { borrower: 'Zed' });
    await makeOverdue(trove, cart.id, addDays(DAY, -1));
  }, 60_000);

  afterAll(async () => {
    await trove?.close();
    await webhook?.close();
  });

  it('lists what is out past its due day, by due day, once a day', async () => {
    const run = await remind(DAY);
    expect(run).toEqual({ day: DAY, groups: 2, reminded: 1 });
    await waitFor(() => to('/ada').length > 0, 30);
    expect(to('/ada').map((delivery) => delivery.body)).toEqual([
      {
        title: `${adaGroup}: reminders for ${DAY}`,
        message: [
          'Overdue check-outs:',
          `- Chairs ×2: Grace, due ${addDays(DAY, -5)}`,
          `- Drill: ${bob.name}, due ${addDays(DAY, -3)}`,
        ].join('\n'),
      },
    ]);

    expect((await remind(DAY)).reminded).toBe(0);
    const groups = await trove.query<{ group_id: string }>(
      'SELECT group_id FROM reminder_runs WHERE day = $1',
      [DAY],
    );
    expect(groups).toEqual([{ group_id: ada.groupId }]);
  });

  it('reminds again the next day until all is back', async () => {
    const next = addDays(DAY, 1);
    const before = to('/ada').length;
    expect((await remind(next)).reminded).toBe(1);
    await waitFor(() => to('/ada').length > before, 30);
    expect(to('/ada')[before].body.message).toBe(
      [
        'Overdue check-outs:',
        `- Chairs ×2: Grace, due ${addDays(DAY, -5)}`,
        `- Drill: ${bob.name}, due ${addDays(DAY, -3)}`,
        `- Tent: Cy, due ${DAY}`,
      ].join('\n'),
    );

    await returnCheckout(trove, ada, drill);
    await returnCheckout(trove, ada, chairs, { quantity: 1 });
    const later = addDays(DAY, 2);
    const run = await remind(later);
    expect(run.reminded).toBe(1);
    await waitFor(() => to('/ada').length > before + 1, 30);
    expect(to('/ada')[before + 1].body.message).toBe(
      [
        'Overdue check-outs:',
        `- Chairs: Grace, due ${addDays(DAY, -5)}`,
        `- Tent: Cy, due ${DAY}`,
      ].join('\n'),
    );
    expect(to('/eve')).toEqual([]);
  });
});
