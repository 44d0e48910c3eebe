import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import pg from 'pg';

/** Injection token of the database URL the notifications connection uses. */
export const NOTIFICATIONS_DATABASE_URL = 'NOTIFICATIONS_DATABASE_URL';

/** How the listening connection names itself in `pg_stat_activity`. */
export const NOTIFICATIONS_APPLICATION_NAME = 'trove-notifications';

/** Waits between attempts to get the listening connection back: doubling, then steady. */
const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 5_000;
/** How long shutdown waits for the listening connection to say goodbye before dropping it. */
const END_TIMEOUT_MS = 500;

export type NotificationHandler = (payload: string) => void;

/**
 * Told when a channel becomes subscribed (after its LISTEN on a fresh connection: notifications
 * committed while it was not may have been missed) and when the connection is lost.
 */
export type SubscriptionHandler = (subscribed: boolean) => void;

/** A LISTEN channel name: a plain lower-case identifier, so it needs no quoting. */
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * PostgreSQL LISTEN for the app: one dedicated connection per instance (a pooled one cannot
 * stay subscribed), opened at the first `listen()`. NOTIFY (sent with `pg_notify` through
 * `Database.query`, so inside the caller's unit of work) is delivered only when its transaction
 * commits, never on rollback, and to every listener on the database: every instance.
 *
 * When the connection is lost (the database restarted) it is opened again with backoff and
 * every channel listened to again; notifications committed while it was down are not seen, so
 * a listener that keeps state derived from them passes `onSubscription` and starts afresh each
 * time its channel is subscribed again. On shutdown the connection is ended without waiting on
 * a database that does not answer.
 */
@Injectable()
export class DatabaseNotifications implements OnApplicationShutdown {
  private readonly logger = new Logger('DatabaseNotifications');
  private readonly handlers = new Map<string, NotificationHandler[]>();
  private readonly subscriptionHandlers = new Map<string, SubscriptionHandler[]>();
  /** Channels whose LISTEN has completed on the current connection. */
  private readonly subscribed = new Set<string>();
  private client: pg.Client | undefined;
  /** Whether `client` is connected and listens on every channel. */
  private listening = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private stopped = false;
  private readyWaiters: (() => void)[] = [];
  /** The last statement sent on the listening connection, which takes one at a time. */
  private sending: Promise<unknown> = Promise.resolve();

  constructor(@Inject(NOTIFICATIONS_DATABASE_URL) private readonly url: string) {}

  /**
   * Calls `handler` with the payload of every notification on `channel`, from now on, and
   * `onSubscription` each time the channel becomes subscribed or stops being (see
   * `SubscriptionHandler`).
   */
  listen(
    channel: string,
    handler: NotificationHandler,
    onSubscription?: SubscriptionHandler,
  ): void {
    if (!CHANNEL.test(channel)) throw new Error(`invalid notification channel: ${channel}`);
    if (onSubscription) {
      const watchers = this.subscriptionHandlers.get(channel);
      if (watchers) watchers.push(onSubscription);
      else this.subscriptionHandlers.set(channel, [onSubscription]);
    }
    const known = this.handlers.get(channel);
    if (known) {
      known.push(handler);
      if (onSubscription && this.subscribed.has(channel)) onSubscription(true);
      return;
    }
    this.handlers.set(channel, [handler]);
    const client = this.client;
    if (client) {
      this.serially(() => client.query(`LISTEN ${channel}`)).then(
        () => {
          if (this.client === client && this.listening) this.markSubscribed([channel]);
        },
        (error: unknown) => this.lost(error, client),
      );
    } else {
      this.connect();
    }
  }

  /** Whether notifications on `channel` are received now: its LISTEN is in place. */
  isSubscribed(channel: string): boolean {
    return this.subscribed.has(channel);
  }

  /** Resolves once the listening connection is up and subscribed (at once when it is). */
  ready(): Promise<void> {
    if (this.listening || this.stopped) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  private connect(): void {
    if (this.stopped || this.client) return;
    const client = new pg.Client({
      connectionString: this.url,
      keepAlive: true,
      application_name: NOTIFICATIONS_APPLICATION_NAME,
    });
    client.on('error', (error) => this.lost(error, client));
    client.on('end', () => this.lost(new Error('connection ended'), client));
    client.on('notification', (message) => {
      if (message.payload === undefined) return;
      for (const handler of this.handlers.get(message.channel) ?? []) {
        try {
          handler(message.payload);
        } catch (error) {
          this.logger.error(`notification handler failed: ${String(error)}`);
        }
      }
    });
    this.client = client;
    this.serially(async () => {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
    }).then(
      () => {
        if (this.client !== client) return;
        this.listening = true;
        this.markSubscribed([...this.handlers.keys()]);
        if (this.failures > 0) this.logger.log('listening for notifications again');
        this.failures = 0;
        for (const resolve of this.readyWaiters.splice(0)) resolve();
      },
      (error: unknown) => this.lost(error, client),
    );
  }

  /** Runs `work` once what was sent before it is done, failed or not. */
  private serially<T>(work: () => Promise<T>): Promise<T> {
    const done = this.sending.then(work, work);
    this.sending = done.catch(() => undefined);
    return done;
  }

  private markSubscribed(channels: string[]): void {
    for (const channel of channels) {
      if (this.subscribed.has(channel)) continue;
      this.subscribed.add(channel);
      this.tellSubscription(channel, true);
    }
  }

  private markUnsubscribed(): void {
    const channels = [...this.subscribed];
    this.subscribed.clear();
    for (const channel of channels) this.tellSubscription(channel, false);
  }

  private tellSubscription(channel: string, subscribed: boolean): void {
    for (const handler of this.subscriptionHandlers.get(channel) ?? []) {
      try {
        handler(subscribed);
      } catch (error) {
        this.logger.error(`subscription handler failed: ${String(error)}`);
      }
    }
  }

  /** The connection failed or ended: drop it and try again later, unless shutting down. */
  private lost(error: unknown, client = this.client): void {
    if (!client || client !== this.client) return;
    this.client = undefined;
    this.listening = false;
    this.markUnsubscribed();
    client.removeAllListeners('notification');
    client.end().catch(() => undefined);
    if (this.stopped) return;
    if (this.failures === 0) {
      this.logger.warn(`notification connection lost (${String(error)}); reconnecting`);
    }
    const delay = Math.min(RECONNECT_FIRST_MS * 2 ** this.failures, RECONNECT_MAX_MS);
    this.failures += 1;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
    this.retryTimer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    for (const resolve of this.readyWaiters.splice(0)) resolve();
    const client = this.client;
    this.client = undefined;
    this.listening = false;
    this.markUnsubscribed();
    if (!client) return;
    client.removeAllListeners('notification');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      client.end().catch(() => undefined),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, END_TIMEOUT_MS);
      }),
    ]);
    clearTimeout(timer);
  }
}
