import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, dayIn } from '../../src/platform/calendar/calendar-day.js';
import { RemindersService } from '../../src/operations/reminders/reminders.service.js';
import { as, createEntity } from '../support/api.js';
import { signUp, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { makeEntity } from '../statistics/statistics-helpers.js';

/** What the stand-in received: a generic webhook's JSON, or ntfy's text and title header. */
interface Delivery {
  path: string;
  title: string | undefined;
  text: string;
  body: { title: string; message: string } | undefined;
}

/**
 * A local receiver standing in for notification services: a JSON webhook (`generic+http://`) and
 * an ntfy server (`ntfy://…?scheme=http`, a plain-text POST to the topic with a Title header).
 */
async function startWebhook(): Promise<{ server: Server; port: number; received: Delivery[] }> {
  const received: Delivery[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const json = request.headers['content-type']?.startsWith('application/json');
      received.push({
        path: request.url ?? '',
        title: request.headers.title as string | undefined,
        text,
        body: json ? (JSON.parse(text) as Delivery['body']) : undefined,
      });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, port, received };
}

/**
 * A time zone and its current hour such that the rest of that hour outlasts the test: a zone a
 * half hour off UTC is used when UTC is near the end of its hour.
 */
function reminderWindow(): { zone: string; hour: number; today: string } {
  const now = new Date();
  const zone = now.getUTCMinutes() < 55 ? 'UTC' : 'Asia/Kolkata';
  const hour = Number(
    new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(
      now,
    ),
  );
  return { zone, hour, today: dayIn(zone, now) };
}

async function waitFor(
  condition: () => boolean | Promise<boolean>,
  seconds: number,
): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not met within ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('daily reminders', () => {
  const window = reminderWindow();
  const { today } = window;
  let webhook: Awaited<ReturnType<typeof startWebhook>>;
  let first: TestApp;
  let second: TestApp;
  let ada: Session;
  let eve: Session;
  let adaGroup: string;

  const addNotifier = async (trove: TestApp, session: Session, url: string, isActive = true) => {
    const response = await as(trove, session, 'post', '/api/v1/notifiers').send({
      name: `hook ${url}`,
      url,
      isActive,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
  };
  const addMaintenance = async (
    session: Session,
    entityId: string,
    body: Record<string, string>,
  ) => {
    const response = await as(
      first,
      session,
      'post',
      `/api/v1/entities/${entityId}/maintenance`,
    ).send(body);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
  };
  const to = (path: string) => webhook.received.filter((delivery) => delivery.path === path);

  beforeAll(async () => {
    webhook = await startWebhook();
    const env = {
      TROVE_REMINDERS_HOUR: String(window.hour),
      TROVE_REMINDERS_TIME_ZONE: window.zone,
      TROVE_REMINDERS_WARRANTY_DAYS: '30',
      TROVE_OUTBOUND_ALLOW_NETS: '127.0.0.1/32',
    };
    first = await createTestApp(env);
    second = await createTestApp(env, { database: first.database });

    ada = await signUp(first, { name: 'Ada' });
    eve = await signUp(first, { name: 'Eve' });
    const groups = await as(first, ada, 'get', '/api/v1/groups').expect(200);
    adaGroup = (groups.body as { name: string }).name;

    const boiler = await createEntity(first, ada, 'Boiler');
    await addMaintenance(ada, boiler.id, { name: 'Annual service', scheduledDate: today });
    const car = await createEntity(first, ada, 'Car');
    await addMaintenance(ada, car.id, {
      name: 'Tyres',
      scheduledDate: today,
      completedDate: today,
    });
    const bike = await createEntity(first, ada, 'Bike');
    await addMaintenance(ada, bike.id, { name: 'Chain', scheduledDate: addDays(today, 1) });
    await makeEntity(first, ada, { name: 'Laptop', warrantyExpires: addDays(today, 10) });
    await makeEntity(first, ada, { name: 'Drill', warrantyExpires: addDays(today, 40) });
    await makeEntity(first, ada, {
      name: 'Kettle',
      warrantyExpires: addDays(today, 5),
      lifetimeWarranty: true,
    });
    await makeEntity(first, ada, {
      name: 'Old radio',
      warrantyExpires: addDays(today, 3),
      archived: true,
    });
    const generic = `generic+http://127.0.0.1:${webhook.port}`;
    await addNotifier(first, ada, `${generic}/ada`);
    await addNotifier(first, ada, `${generic}/ada-paused`, false);

    const shed = await createEntity(first, eve, 'Shed');
    await addMaintenance(eve, shed.id, { name: 'Paint', scheduledDate: today });
    await addNotifier(first, eve, `ntfy://127.0.0.1:${webhook.port}/eve?scheme=http`);

    // A group with something due and no notifier gets nothing, and is not marked reminded.
    const cy = await signUp(first, { name: 'Cy' });
    const saw = await createEntity(first, cy, 'Saw');
    await addMaintenance(cy, saw.id, { name: 'Sharpen', scheduledDate: today });
  }, 60_000);

  afterAll(async () => {
    await second?.close();
    await first?.close();
    await new Promise((resolve) => webhook?.server.close(resolve));
  });

  it('sends each group one message at the configured hour, with two instances running', async () => {
    await waitFor(() => to('/ada').length > 0 && to('/eve').length > 0, 150);
    expect(to('/ada')[0].body).toEqual({
      title: `${adaGroup}: reminders for ${today}`,
      message: [
        'Maintenance scheduled today:',
        '- Boiler: Annual service',
        '',
        'Warranties ending within 30 days:',
        `- Laptop: ${addDays(today, 10)}`,
      ].join('\n'),
    });
    expect(to('/eve')[0]).toMatchObject({
      title: `Eve's Home: reminders for ${today}`,
      text: 'Maintenance scheduled today:\n- Shed: Paint',
    });

    // Later runs of the hour, on either instance or both at once, remind nobody again.
    const later = await Promise.all([
      first.app.get(RemindersService).remind(new Date()),
      second.app.get(RemindersService).remind(new Date()),
    ]);
    expect(later.map((run) => run.reminded)).toEqual([0, 0]);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(to('/ada')).toHaveLength(1);
    expect(to('/eve')).toHaveLength(1);
    expect(to('/ada-paused')).toHaveLength(0);
    const reminded = await first.query<{ name: string }>(
      `SELECT g.name FROM reminder_runs r JOIN groups g ON g.id = r.group_id ORDER BY g.name`,
    );
    expect(reminded.map((row) => row.name)).toEqual([adaGroup, "Eve's Home"].sort());
  }, 200_000);

  it('runs on two instances at once for the next day send one message, announcing a warranty only once', async () => {
    const tomorrow = new Date(`${addDays(today, 1)}T12:00:00Z`);
    const before = to('/ada').length;
    const [one, two] = await Promise.all([
      first.app.get(RemindersService).remind(tomorrow),
      second.app.get(RemindersService).remind(tomorrow),
    ]);
    expect(one.reminded + two.reminded).toBe(1);
    await waitFor(() => to('/ada').length > before, 30);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(
      to('/ada')
        .slice(before)
        .map((delivery) => delivery.body),
    ).toEqual([
      {
        title: `${adaGroup}: reminders for ${addDays(today, 1)}`,
        message: 'Maintenance scheduled today:\n- Bike: Chain',
      },
    ]);
  }, 60_000);
});
