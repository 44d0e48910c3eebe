import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/platform/database/database.js';
import { NotifiersService } from '../../src/operations/notifiers/notifiers.service.js';
import {
  closedPort,
  startLocalServer,
  type LocalServer,
  type ReceivedRequest,
} from '../outbound/local-servers.js';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  createNotifier,
  eventually,
  expectUnauthenticated,
  ISO,
  listNotifiers,
  NOTIFIERS,
  startSmtpStandIn,
  VIEWER_ONLY_READS,
  type NotifierBody,
  type SmtpStandIn,
} from './notifier-helpers.js';

const TEST = `${NOTIFIERS}/test`;

/**
 * A URL of each delivered service that misses what its service needs (saved as Homebox saves
 * it), with what a test answers and a delivery records.
 */
const MALFORMED: [url: string, problem: string][] = [
  ['generic:///hook', 'the generic URL has no host'],
  [
    'generic+http://127.0.0.1/hook?template=xml',
    'generic template "xml" is not supported (only json)',
  ],
  ['ntfy://127.0.0.1/', 'the ntfy URL needs one topic'],
  ['gotify://127.0.0.1', 'the gotify URL needs a host and an application token'],
  [
    'mattermost://127.0.0.1',
    'the mattermost URL must be mattermost://[username@]host[:port]/token[/channel]',
  ],
  ['discord://0123456789', 'the discord URL must be discord://token@webhookid'],
  [
    'slack://only-one-part',
    'the slack URL must be slack://hook:<T…>-<B…>-<token>@webhook or slack://xoxb:<token>@<channel>',
  ],
  ['telegram://123:abc@telegram', 'the telegram URL needs chats='],
  [
    'teams://group@tenant',
    'the teams URL must be teams://<group>@<tenant>/<altId>/<groupOwner>[/<extraId>]?host=…',
  ],
  ['smtp://127.0.0.1:25/?from=a@example.com', 'the smtp URL needs to=<address>[,<address>…]'],
];

describe('notifier delivery', () => {
  let provider: LocalServer;
  let smtp: SmtpStandIn;
  /** Requests to /flaky/<key> fail (500) until this many of them were answered. */
  const failuresLeft = new Map<string, number>();

  const app = useTestApp({
    TROVE_OUTBOUND_ALLOW_NETS: '127.0.0.1/32',
    TROVE_NOTIFIER_RETRY_DELAY: '1',
    TROVE_NOTIFIER_TEST_RATE_LIMIT: '1000',
    TROVE_NOTIFIER_TIMEOUT: '5',
  });
  let owner: Session;
  let viewer: Session;

  beforeAll(async () => {
    provider = await startLocalServer((request: ReceivedRequest, response: ServerResponse) => {
      const path = request.url.split('?')[0];
      if (path.startsWith('/fail')) {
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end('provider down');
        return;
      }
      const flaky = /^\/flaky\/(.+)$/.exec(path);
      const left = flaky ? (failuresLeft.get(flaky[1]) ?? 0) : 0;
      if (flaky && left > 0) {
        failuresLeft.set(flaky[1], left - 1);
        response.writeHead(503);
        response.end('try later');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"ok":true}');
    });
    smtp = await startSmtpStandIn();
    owner = await signUp(app.trove, { name: 'Ada' });
    viewer = await signUpMember(app.trove, owner, 'viewer');
  });
  afterAll(async () => {
    await provider?.close();
    await smtp?.close();
  });

  const received = (path: string): ReceivedRequest[] =>
    provider.requests.filter((request) => request.url.split('?')[0] === path);
  const http = (path: string): string => `${provider.url.replace('http://', '')}${path}`;
  const sendTest = (url: string, session: Session = owner) =>
    as(app.trove, session, 'post', TEST).send({ url });

  describe('POST /api/v1/notifiers/test', () => {
    it('posts {title, message} as JSON to a generic webhook, with its headers, fields and query', async () => {
      const url = `generic+http://${http('/hook')}?source=trove&@X-Api-Key=k1&$priority=high`;
      const response = await sendTest(url).expect(200);
      expect(response.text).toBe('null');
      expect(response.body).toBeNull();
      const [request] = received('/hook');
      expect(request.method).toBe('POST');
      expect(request.url).toBe('/hook?source=trove');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['x-api-key']).toBe('k1');
      expect(JSON.parse(request.body)).toEqual({
        title: 'Trove',
        message: 'Test message from Trove',
        priority: 'high',
      });
    });

    it("takes the URL from the query when the body has none (Homebox's contract)", async () => {
      const url = `generic+http://${http('/from-query')}`;
      const response = await as(app.trove, owner, 'post', TEST).query({ url }).send({}).expect(200);
      expect(response.text).toBe('null');
      expect(received('/from-query')).toHaveLength(1);
    });

    it('honours generic:// with disabletls, custom keys, method and content type', async () => {
      const url = `generic://${http('/custom')}?disabletls=yes&titlekey=subject&messagekey=text&method=put&contenttype=application/vnd.test%2Bjson&_method=kept`;
      await sendTest(url).expect(200);
      const [request] = received('/custom');
      expect(request.method).toBe('PUT');
      expect(request.url).toBe('/custom?method=kept');
      expect(request.headers['content-type']).toBe('application/vnd.test+json');
      expect(JSON.parse(request.body)).toEqual({
        subject: 'Trove',
        text: 'Test message from Trove',
      });
    });

    it('publishes to an ntfy topic with its title, options and access token', async () => {
      const url = `ntfy://:tk_secret@${http('/alerts')}?scheme=http&priority=high&tags=warning,house&click=https://example.com/x`;
      await sendTest(url).expect(200);
      const [request] = received('/alerts');
      expect(request.method).toBe('POST');
      expect(request.body).toBe('Test message from Trove');
      expect(request.headers).toMatchObject({
        title: 'Trove',
        priority: 'high',
        tags: 'warning,house',
        click: 'https://example.com/x',
        authorization: 'Bearer tk_secret',
      });
    });

    it('sends a gotify message with the application token and priority', async () => {
      await sendTest(
        `gotify://${http('/gotify/Aabcdefghijklmn')}?disabletls=yes&priority=5`,
      ).expect(200);
      const [request] = received('/gotify/message');
      expect(request.headers['x-gotify-key']).toBe('Aabcdefghijklmn');
      expect(JSON.parse(request.body)).toEqual({
        title: 'Trove',
        message: 'Test message from Trove',
        priority: 5,
      });
    });

    it('posts to a mattermost incoming webhook', async () => {
      await sendTest(`mattermost://bot@${http('/hooktoken/town-square')}?disabletls=yes`).expect(
        200,
      );
      const [request] = received('/hooks/hooktoken');
      expect(JSON.parse(request.body)).toEqual({
        text: 'Trove\n\nTest message from Trove',
        username: 'bot',
        channel: 'town-square',
      });
    });

    it('sends an e-mail through an SMTP server, logged in as the URL says', async () => {
      const url = `smtp://user:secret@127.0.0.1:${smtp.port}/?fromAddress=trove@example.com&toAddresses=a@example.com,b@example.com&fromName=Trove%20Server&encryption=None`;
      await sendTest(url).expect(200);
      expect(smtp.mails).toHaveLength(1);
      const [mail] = smtp.mails;
      expect(mail.from).toBe('trove@example.com');
      expect(mail.to).toEqual(['a@example.com', 'b@example.com']);
      expect(mail.user).toBe('user');
      expect(mail.data).toContain('Subject: Trove');
      expect(mail.data).toContain('From: Trove Server <trove@example.com>');
      expect(mail.data).toContain('Test message from Trove');
    });

    it('answers 502 naming the cause when the service fails, and nothing is retried', async () => {
      const failing = await sendTest(`generic+http://${http('/fail')}`).expect(502);
      expect(failing.body).toEqual({
        error: `test message not delivered: generic at ${provider.url} answered 500: provider down`,
      });
      expect(received('/fail')).toHaveLength(1);

      const port = await closedPort();
      const unreachable = await sendTest(`ntfy://127.0.0.1:${port}/topic?scheme=http`).expect(502);
      expect(unreachable.body).toEqual({
        error: `test message not delivered: outbound request to http://127.0.0.1:${port} failed: connect ECONNREFUSED 127.0.0.1:${port}`,
      });

      const login = await sendTest(
        `smtp://user:wrong@127.0.0.1:${smtp.port}/?from=trove@example.com&to=a@example.com&encryption=None`,
      ).expect(502);
      expect((login.body as { error: string }).error).toContain(
        `test message not delivered: smtp at smtp://127.0.0.1:${smtp.port} failed:`,
      );
      expect((login.body as { error: string }).error).not.toContain('wrong');
    });

    it('refuses a private or metadata address with 400 naming the reason, sending nothing', async () => {
      const before = provider.requests.length;
      for (const [url, reason] of [
        ['generic+http://10.0.0.1/hook', '10.0.0.1 is a private address'],
        ['generic+http://169.254.169.254/latest/meta-data', 'cloud metadata'],
        ['smtp://192.168.0.2/?from=a@example.com&to=b@example.com', '192.168.0.2 is a private'],
      ]) {
        const response = await sendTest(url).expect(400);
        expect((response.body as { error: string }).error).toContain('test message not delivered');
        expect((response.body as { error: string }).error).toContain(reason);
      }
      expect(provider.requests.length).toBe(before);
    });

    it('answers 422 for a scheme not delivered, a malformed URL and one not allowed', async () => {
      const bark = await sendTest('bark://devicekey@api.day.app').expect(422);
      expect(bark.body).toEqual({
        error: 'notifier scheme bark:// is not supported for delivery',
      });
      const malformed = await sendTest('ntfy://127.0.0.1/').expect(422);
      expect(malformed.body).toEqual({
        error: 'Validation Error',
        fields: { url: 'the ntfy URL needs one topic' },
      });
      const notAllowed = await sendTest('https://example.com/hook').expect(422);
      expect(Object.keys((notAllowed.body as { fields: object }).fields)).toEqual(['url']);
      const missing = await as(app.trove, owner, 'post', TEST).send({}).expect(422);
      expect(missing.body).toEqual({
        error: 'Validation Error',
        fields: { url: 'url is required' },
      });
      const badQuery = await as(app.trove, owner, 'post', `${TEST}?url=https://example.com`)
        .send({})
        .expect(422);
      expect(Object.keys((badQuery.body as { fields: object }).fields)).toEqual(['url']);
    });

    it('answers 422 naming what is wrong for a malformed URL of each delivered service', async () => {
      const before = provider.requests.length;
      const smtpBefore = smtp.mails.length;
      for (const [url, problem] of MALFORMED) {
        const response = await sendTest(url);
        expect([url, response.status]).toEqual([url, 422]);
        expect(response.body).toEqual({ error: 'Validation Error', fields: { url: problem } });
      }
      expect(provider.requests.length).toBe(before);
      expect(smtp.mails).toHaveLength(smtpBefore);
    });

    it('answers 401 without a valid token and 403 to a viewer', async () => {
      await expectUnauthenticated(app.trove, 'post', TEST, { url: 'bark://x@y' });
      const response = await sendTest(`generic+http://${http('/viewer')}`, viewer).expect(403);
      expect(response.body).toEqual(VIEWER_ONLY_READS);
      expect(received('/viewer')).toHaveLength(0);
    });
  });

  describe('NotifiersService.notifyGroup and queued deliveries', () => {
    const service = () => app.trove.app.get(NotifiersService);
    const database = () => app.trove.app.get(Database);

    const jobsOf = (ids: string[]) =>
      app.trove.query<{ state: string; retry_count: number; id: string }>(
        `SELECT state, retry_count, data->>'notifierId' AS id FROM pgboss.job
         WHERE name = 'notifiers.deliver' AND data->>'notifierId' = ANY($1)`,
        [ids],
      );
    const notifierOf = async (session: Session, id: string): Promise<NotifierBody> =>
      (await listNotifiers(app.trove, session)).find((notifier) => notifier.id === id)!;

    it("queues one job per active notifier of the group (anyone's), each delivered and recorded", async () => {
      const ada = await signUp(app.trove, { name: 'Group owner' });
      const colleague = await signUpMember(app.trove, ada, 'user');
      const stranger = await signUp(app.trove, { name: 'Stranger' });
      const active = await createNotifier(app.trove, ada, {
        name: 'Active',
        url: `generic+http://${http('/group/a')}`,
      });
      const inactive = await createNotifier(app.trove, ada, {
        name: 'Inactive',
        isActive: false,
        url: `generic+http://${http('/group/b')}`,
      });
      const theirs = await createNotifier(app.trove, colleague, {
        name: 'Colleague',
        url: `ntfy://${http('/group-c')}?scheme=http`,
      });
      const foreign = await createNotifier(app.trove, stranger, {
        name: 'Foreign',
        url: `generic+http://${http('/group/d')}`,
      });

      const queued = await database().transaction(() =>
        service().notifyGroup(ada.groupId, { title: 'Reminder', body: 'Oil change today' }),
      );
      expect(queued).toBe(2);
      expect(
        (await jobsOf([active.id, inactive.id, theirs.id, foreign.id])).map((job) => job.id).sort(),
      ).toEqual([active.id, theirs.id].sort());

      const delivered = await eventually(async () => {
        const notifier = await notifierOf(ada, active.id);
        return notifier.lastSuccessAt ? notifier : undefined;
      });
      expect(delivered).toMatchObject({ lastError: null, lastErrorAt: null });
      await eventually(
        async () => (await notifierOf(colleague, theirs.id)).lastSuccessAt ?? undefined,
      );
      expect(JSON.parse(received('/group/a')[0].body)).toEqual({
        title: 'Reminder',
        message: 'Oil change today',
      });
      expect(received('/group-c')[0]).toMatchObject({
        body: 'Oil change today',
        headers: expect.objectContaining({ title: 'Reminder' }) as object,
      });
      expect(received('/group/b')).toHaveLength(0);
      expect(received('/group/d')).toHaveLength(0);
    });

    it("joins the caller's unit of work: nothing is queued when it rolls back", async () => {
      const ada = await signUp(app.trove, { name: 'Rollback' });
      const notifier = await createNotifier(app.trove, ada, {
        name: 'Rolled back',
        url: `generic+http://${http('/rolled-back')}`,
      });
      await expect(
        database().transaction(async () => {
          expect(await service().notifyGroup(ada.groupId, { title: 'T', body: 'B' })).toBe(1);
          throw new Error('the caller fails');
        }),
      ).rejects.toThrow('the caller fails');
      expect(await jobsOf([notifier.id])).toEqual([]);
      expect(await service().notifyGroup(UNKNOWN_GROUP, { title: 'T', body: 'B' })).toBe(0);
    });

    it('records the error of a failing provider, then the success of the retry', async () => {
      const ada = await signUp(app.trove, { name: 'Flaky' });
      failuresLeft.set('recover', 1);
      const notifier = await createNotifier(app.trove, ada, {
        name: 'Flaky',
        url: `generic+http://${http('/flaky/recover')}`,
      });
      await service().notifyGroup(ada.groupId, { title: 'Retry', body: 'Second time lucky' });

      const failed = await eventually(async () => {
        const current = await notifierOf(ada, notifier.id);
        return current.lastError ? current : undefined;
      });
      expect(failed.lastError).toBe(`generic at ${provider.url} answered 503: try later`);
      expect(failed.lastErrorAt).not.toBeNull();
      const recovered = await eventually(async () => {
        const current = await notifierOf(ada, notifier.id);
        return current.lastSuccessAt ? current : undefined;
      });
      expect(Date.parse(recovered.lastSuccessAt!)).toBeGreaterThan(
        Date.parse(recovered.lastErrorAt!),
      );
      expect(recovered.lastError).toBe(failed.lastError);
      expect(received('/flaky/recover')).toHaveLength(2);
      const [job] = await jobsOf([notifier.id]);
      expect(job).toMatchObject({ state: 'completed', retry_count: 1 });
    });

    it('records a scheme not delivered to as the error, without retrying', async () => {
      const ada = await signUp(app.trove, { name: 'Bark' });
      const notifier = await createNotifier(app.trove, ada, {
        name: 'Bark',
        url: 'bark://devicekey@api.day.app',
      });
      await service().notifyGroup(ada.groupId, { title: 'T', body: 'B' });
      const failed = await eventually(async () => {
        const current = await notifierOf(ada, notifier.id);
        return current.lastError ? current : undefined;
      });
      expect(failed).toMatchObject({
        lastError: 'notifier scheme bark:// is not supported for delivery',
        lastSuccessAt: null,
      });
      const [job] = await eventually(async () => {
        const jobs = await jobsOf([notifier.id]);
        return jobs[0]?.state === 'completed' ? jobs : undefined;
      });
      expect(job.retry_count).toBe(0);
    });

    it('records what is wrong with a malformed URL of each delivered service, without retrying', async () => {
      const ada = await signUp(app.trove, { name: 'Malformed' });
      const before = provider.requests.length;
      const smtpBefore = smtp.mails.length;
      const notifiers = new Map<string, string>();
      for (const [url, problem] of MALFORMED) {
        const created = await createNotifier(app.trove, ada, { name: url, url });
        notifiers.set(created.id, problem);
      }
      expect(await service().notifyGroup(ada.groupId, { title: 'T', body: 'B' })).toBe(
        MALFORMED.length,
      );
      const recorded = await eventually(async () => {
        const all = await listNotifiers(app.trove, ada);
        return all.every((notifier) => notifier.lastError) ? all : undefined;
      });
      for (const notifier of recorded) {
        expect(notifier).toMatchObject({
          lastError: notifiers.get(notifier.id),
          lastErrorAt: expect.stringMatching(ISO) as string,
          lastSuccessAt: null,
        });
      }
      const jobs = await eventually(async () => {
        const all = await jobsOf([...notifiers.keys()]);
        return all.length === MALFORMED.length && all.every((job) => job.state === 'completed')
          ? all
          : undefined;
      });
      expect(jobs.map((job) => job.retry_count)).toEqual(MALFORMED.map(() => 0));
      expect(provider.requests.length).toBe(before);
      expect(smtp.mails).toHaveLength(smtpBefore);
    });

    it('sends nothing for jobs of a notifier deleted or deactivated before they ran', async () => {
      const ada = await signUp(app.trove, { name: 'Pending' });
      const deleted = await createNotifier(app.trove, ada, {
        name: 'Deleted',
        url: `generic+http://${http('/pending/deleted')}`,
      });
      const deactivated = await createNotifier(app.trove, ada, {
        name: 'Deactivated',
        url: `generic+http://${http('/pending/deactivated')}`,
      });
      await database().transaction(async () => {
        expect(await service().notifyGroup(ada.groupId, { title: 'T', body: 'B' })).toBe(2);
        // Changed on another connection before the jobs become visible to the workers.
        await app.trove.query('DELETE FROM notifiers WHERE id = $1', [deleted.id]);
        await app.trove.query('UPDATE notifiers SET is_active = false WHERE id = $1', [
          deactivated.id,
        ]);
      });
      const jobs = await eventually(async () => {
        const current = await jobsOf([deleted.id, deactivated.id]);
        return current.length === 2 && current.every((job) => job.state === 'completed')
          ? current
          : undefined;
      });
      expect(jobs.map((job) => job.retry_count)).toEqual([0, 0]);
      expect(received('/pending/deleted')).toHaveLength(0);
      expect(received('/pending/deactivated')).toHaveLength(0);
      expect(await notifierOf(ada, deactivated.id)).toMatchObject({
        lastSuccessAt: null,
        lastError: null,
      });
    });
  });
});

const UNKNOWN_GROUP = '00000000-0000-4000-8000-000000000000';
