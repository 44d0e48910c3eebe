import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { expect } from 'vitest';
import { as } from '../support/api.js';
import type { Session } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';

export { as, UNKNOWN_ID } from '../support/api.js';
export { expectUnauthenticated, VIEWER_ONLY_READS } from '../support/auth-expectations.js';

export const NOTIFIERS = '/api/v1/notifiers';

export const OUT_KEYS = [
  'createdAt',
  'groupId',
  'id',
  'isActive',
  'lastError',
  'lastErrorAt',
  'lastSuccessAt',
  'name',
  'updatedAt',
  'url',
  'userId',
];

export interface NotifierBody {
  id: string;
  userId: string;
  groupId: string;
  createdAt: string;
  updatedAt: string;
  name: string;
  isActive: boolean;
  url: string;
  lastSuccessAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
}

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Creates a notifier through the API. */
export async function createNotifier(
  trove: TestApp,
  session: Session,
  body: Record<string, unknown>,
): Promise<NotifierBody> {
  const response = await as(trove, session, 'post', NOTIFIERS).send(body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as NotifierBody;
}

export async function listNotifiers(trove: TestApp, session: Session): Promise<NotifierBody[]> {
  const response = await as(trove, session, 'get', NOTIFIERS).expect(200);
  return response.body as NotifierBody[];
}

/** The stored row of a notifier, as the table holds it. */
export async function storedRow(
  trove: TestApp,
  id: string,
): Promise<Record<string, unknown> | undefined> {
  const [row] = await trove.query('SELECT * FROM notifiers WHERE id = $1', [id]);
  return row;
}

export const countNotifiers = async (trove: TestApp): Promise<number> =>
  Number((await trove.query<{ n: string }>('SELECT count(*) AS n FROM notifiers'))[0].n);

/** Polls `probe` until it returns a value other than undefined (or the test times out). */
export async function eventually<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface ReceivedMail {
  from: string;
  to: string[];
  user: string | undefined;
  data: string;
}

export interface SmtpStandIn {
  port: number;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 (no TLS) accepting the one login `user`/`secret`. */
export async function startSmtpStandIn(): Promise<SmtpStandIn> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'user' && auth.password === 'secret') {
        callback(null, { user: auth.username });
      } else {
        callback(new Error('Invalid username or password'));
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          user: session.user as string | undefined,
          data: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return {
    port,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What the webhook stand-in received: a generic webhook's JSON. */
export interface Delivery {
  path: string;
  body: { title: string; message: string };
}

export interface WebhookStandIn {
  port: number;
  received: Delivery[];
  close(): Promise<void>;
}

/** A local receiver standing in for a notification service's JSON webhook (`generic+http://`). */
export async function startWebhook(): Promise<WebhookStandIn> {
  const received: Delivery[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Delivery['body'],
      });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Adds a notifier to the session's group and expects 201. */
export async function addNotifier(
  trove: TestApp,
  session: Session,
  url: string,
  isActive = true,
): Promise<void> {
  const response = await as(trove, session, 'post', '/api/v1/notifiers').send({
    name: `hook ${url}`,
    url,
    isActive,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
}
