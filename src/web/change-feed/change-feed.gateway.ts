import type { IncomingMessage } from 'node:http';
import {
  HttpException,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { WebSocketGateway, type OnGatewayConnection, type OnGatewayInit } from '@nestjs/websockets';
import type { WebSocket, WebSocketServer } from 'ws';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import type { PresentedToken } from '../../identity/auth/token-extraction.js';
import { AUTH_SUBPROTOCOL } from '../../identity/auth/token-extraction.js';
import { UpgradeAuthenticationService } from '../../identity/auth/upgrade-authentication.service.js';
import { CREDENTIALS_CHANNEL } from '../../identity/auth/verified-credentials.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { isDatabaseUnavailable } from '../../platform/database/database-availability.js';
import { DatabaseNotifications } from '../../platform/database/database-notifications.js';
import type { ChangeEvent } from '../../platform/change-events/change-events.service.js';
import { telemetry } from '../../platform/telemetry/telemetry.js';
import { ChangeEvents } from '../../platform/change-events/change-events.service.js';

export const CHANGE_FEED_PATH = '/api/v1/ws/events';
/** Bytes a socket may have waiting to be sent; a client that reads slower is dropped. */
export const MAX_BUFFERED_BYTES = 64 * 1024;
/** Sockets one user may hold open on one instance. */
export const MAX_SOCKETS_PER_USER = 16;
export const TOO_MANY_SOCKETS_MESSAGE = `at most ${MAX_SOCKETS_PER_USER} change-feed connections per user`;
/** Close codes: going away (shutdown), policy violation (credential no longer valid). */
export const CLOSE_GOING_AWAY = 1001;
export const CLOSE_POLICY = 1008;
/** A closing handshake the client does not finish in this time is cut. */
const CLOSE_TIMEOUT_MS = 1_000;
/** How long start-up waits for the notification listener. */
const LISTEN_WAIT_MS = 5_000;

type FeedVerify = (
  info: { req: IncomingMessage },
  done: (ok: boolean, code?: number, message?: string, headers?: Record<string, string>) => void,
) => void;

interface FeedSocket {
  socket: WebSocket;
  userId: string;
  groupId: string;
  credential: PresentedToken;
}

const frame = (event: ChangeEvent | 'ping'): string => JSON.stringify({ event });

/**
 * `GET /api/v1/ws/events`: Homebox's change feed. Each socket belongs to the group chosen at the
 * upgrade and receives `{"event":"<kind>.mutation"}` when that group's data changes (on any
 * instance, once the change commits; see ChangeEvents), and `{"event":"ping"}` every
 * TROVE_WS_PING_INTERVAL seconds.
 *
 * The upgrade is authenticated like an HTTP request (refused with its status, no socket). A
 * socket's credential and membership are checked again as soon as the database announces a
 * change to its user's credentials (`CREDENTIALS_CHANNEL`, heard by every instance), at each
 * ping, and after the notification connection comes back (notices may have been missed); a
 * socket whose session was revoked (logout, refresh, password change, back-channel logout, user
 * deleted or disabled), including one opened with the attachment token issued with that session,
 * or whose user left the group is closed with 1008. A socket with more than MAX_BUFFERED_BYTES unsent is dropped rather than buffered.
 * On shutdown every socket is closed with 1001.
 */
@WebSocketGateway({
  path: CHANGE_FEED_PATH,
  closeTimeout: CLOSE_TIMEOUT_MS,
  maxPayload: 1024,
  perMessageDeflate: false,
})
export class ChangeFeedGateway
  implements OnGatewayInit, OnGatewayConnection, OnApplicationBootstrap, OnModuleDestroy
{
  private readonly logger = new Logger('ChangeFeed');
  private readonly byGroup = new Map<string, Set<FeedSocket>>();
  private readonly socketsOfUser = new Map<string, number>();
  /** Callers of upgrades that passed verification, until their socket opens. */
  private readonly verified = new WeakMap<
    IncomingMessage,
    { user: AuthUser; credential: PresentedToken }
  >();
  private pingTimer: NodeJS.Timeout | undefined;
  private checking = false;
  private closed = false;

  constructor(
    private readonly authentication: UpgradeAuthenticationService,
    private readonly changes: ChangeEvents,
    private readonly notifications: DatabaseNotifications,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  afterInit(server: WebSocketServer): void {
    const verifyClient: FeedVerify = (info, done) => {
      const { traceparent, tracestate } = info.req.headers;
      const parent =
        typeof traceparent === 'string'
          ? { traceparent, ...(typeof tracestate === 'string' ? { tracestate } : {}) }
          : undefined;
      telemetry()
        .inSpan(
          `WS upgrade ${CHANGE_FEED_PATH}`,
          { 'http.request.method': 'GET', 'http.route': CHANGE_FEED_PATH },
          () => this.verify(info.req),
          { parent, kind: 'server' },
        )
        .then(
          () => done(true),
          (error: unknown) => {
            const { status, message } = this.refusal(error);
            done(false, status, JSON.stringify({ error: message }), {
              'Content-Type': 'application/json; charset=utf-8',
            });
          },
        );
    };
    server.options.verifyClient = verifyClient;
    server.options.handleProtocols = (protocols) =>
      protocols.has(AUTH_SUBPROTOCOL) ? AUTH_SUBPROTOCOL : false;
    this.changes.subscribe(({ groupId, event }) => this.broadcast(groupId, event));
    // The check reads the credential cache only after an await, so the cache's own handler of
    // the same notice has forgotten the user by then, whichever runs first.
    this.notifications.listen(
      CREDENTIALS_CHANNEL,
      (userId) => void this.recheckWhere((feed) => feed.userId === userId),
      (subscribed) => {
        if (subscribed) void this.recheckWhere(() => true);
      },
    );
    const interval = this.config.get('changeFeed', { infer: true }).pingIntervalMs;
    this.pingTimer = setInterval(() => void this.ping(), interval);
    this.pingTimer.unref();
  }

  /** The app serves once this instance hears notices (bounded: the listener keeps retrying). */
  async onApplicationBootstrap(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.changes.listening(),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, LISTEN_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
  }

  private async verify(request: IncomingMessage): Promise<void> {
    if (this.closed) throw new HttpException('the server is shutting down', 503);
    const caller = await this.authentication.authenticate(request);
    if ((this.socketsOfUser.get(caller.user.id) ?? 0) >= MAX_SOCKETS_PER_USER) {
      throw new HttpException(TOO_MANY_SOCKETS_MESSAGE, 429);
    }
    this.verified.set(request, caller);
  }

  private refusal(error: unknown): { status: number; message: string } {
    if (error instanceof HttpException)
      return { status: error.getStatus(), message: error.message };
    if (isDatabaseUnavailable(error)) {
      return { status: 503, message: 'the database is unavailable; try again shortly' };
    }
    this.logger.error(`change-feed upgrade failed: ${String(error)}`);
    return { status: 500, message: 'Unknown Error' };
  }

  handleConnection(socket: WebSocket, request: IncomingMessage): void {
    const caller = this.verified.get(request);
    this.verified.delete(request);
    if (!caller || this.closed) {
      socket.terminate();
      return;
    }
    const count = this.socketsOfUser.get(caller.user.id) ?? 0;
    if (count >= MAX_SOCKETS_PER_USER) {
      socket.close(CLOSE_POLICY, TOO_MANY_SOCKETS_MESSAGE);
      return;
    }
    const feed: FeedSocket = {
      socket,
      userId: caller.user.id,
      groupId: caller.user.groupId,
      credential: caller.credential,
    };
    this.socketsOfUser.set(feed.userId, count + 1);
    let sockets = this.byGroup.get(feed.groupId);
    if (!sockets) this.byGroup.set(feed.groupId, (sockets = new Set()));
    sockets.add(feed);
    telemetry().changeFeedSockets(1);
    socket.once('close', () => this.forget(feed));
  }

  private forget(feed: FeedSocket): void {
    const sockets = this.byGroup.get(feed.groupId);
    if (!sockets?.delete(feed)) return;
    telemetry().changeFeedSockets(-1);
    if (sockets.size === 0) this.byGroup.delete(feed.groupId);
    const count = (this.socketsOfUser.get(feed.userId) ?? 1) - 1;
    if (count > 0) this.socketsOfUser.set(feed.userId, count);
    else this.socketsOfUser.delete(feed.userId);
  }

  /** Sends `text` unless the socket already has too much waiting: then it is dropped. */
  private send(feed: FeedSocket, text: string): void {
    const { socket } = feed;
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.forget(feed);
      socket.terminate();
      return;
    }
    socket.send(text);
    telemetry().count('trove.ws.events_sent');
  }

  private broadcast(groupId: string, event: ChangeEvent): void {
    const sockets = this.byGroup.get(groupId);
    if (!sockets) return;
    const text = frame(event);
    for (const feed of [...sockets]) this.send(feed, text);
  }

  /** Pings every socket, then checks each one's credential again. */
  private async ping(): Promise<void> {
    const text = frame('ping');
    const all = [...this.byGroup.values()].flatMap((sockets) => [...sockets]);
    for (const feed of all) this.send(feed, text);
    if (this.checking) return;
    this.checking = true;
    try {
      for (const feed of all) {
        if (this.closed) return;
        if (feed.socket.readyState === feed.socket.OPEN) await this.recheck(feed);
      }
    } finally {
      this.checking = false;
    }
  }

  /** Checks the credential of every open socket that `matches` again now, one at a time. */
  private async recheckWhere(matches: (feed: FeedSocket) => boolean): Promise<void> {
    const sockets = [...this.byGroup.values()].flatMap((group) => [...group].filter(matches));
    for (const feed of sockets) {
      if (this.closed) return;
      if (feed.socket.readyState === feed.socket.OPEN) await this.recheck(feed);
    }
  }

  private async recheck(feed: FeedSocket): Promise<void> {
    try {
      await this.authentication.recheck(feed.credential, feed.groupId);
    } catch (error) {
      if (error instanceof HttpException) {
        this.forget(feed);
        feed.socket.close(CLOSE_POLICY, error.message.slice(0, 120));
      } else if (!isDatabaseUnavailable(error)) {
        this.logger.warn(`change-feed credential check failed: ${String(error)}`);
      }
    }
  }

  /** Sockets open on this instance. */
  get size(): number {
    let size = 0;
    for (const sockets of this.byGroup.values()) size += sockets.size;
    return size;
  }

  /** Refuses new sockets and closes every open one with 1001 (going away). */
  closeAll(): void {
    this.closed = true;
    clearInterval(this.pingTimer);
    for (const sockets of this.byGroup.values()) {
      for (const feed of sockets) feed.socket.close(CLOSE_GOING_AWAY, 'server shutting down');
    }
    this.byGroup.clear();
    this.socketsOfUser.clear();
  }

  onModuleDestroy(): void {
    this.closeAll();
  }
}
