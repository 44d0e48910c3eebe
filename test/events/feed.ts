import WebSocket from 'ws';

export const FEED_PATH = '/api/v1/ws/events';

export interface FeedOptions {
  headers?: Record<string, string>;
  protocols?: string[];
  query?: Record<string, string>;
}

export interface Closed {
  code: number;
  reason: string;
}

/** A change-feed socket that records every frame it receives. */
export interface Feed {
  socket: WebSocket;
  /** The `event` of every frame, in order (pings included). */
  frames: string[];
  /** The frames other than pings. */
  readonly events: string[];
  /** Resolves once a frame with this event has arrived (counting from the start). */
  waitFor(event: string, count?: number, timeoutMs?: number): Promise<void>;
  closed: Promise<Closed>;
  close(): Promise<void>;
}

const feedUrl = (baseUrl: string, query: Record<string, string> = {}): string => {
  const url = new URL(FEED_PATH, baseUrl.replace(/^http/, 'ws'));
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return url.toString();
};

/** Opens a socket; rejects when the upgrade is refused. */
export function openFeed(baseUrl: string, options: FeedOptions = {}): Promise<Feed> {
  const socket = new WebSocket(feedUrl(baseUrl, options.query), options.protocols ?? [], {
    headers: options.headers,
  });
  const frames: string[] = [];
  const waiters: (() => void)[] = [];
  socket.on('message', (data: WebSocket.RawData, isBinary: boolean) => {
    const text = isBinary ? '<binary>' : (data as Buffer).toString('utf8');
    const parsed = JSON.parse(text) as Record<string, unknown>;
    frames.push(Object.keys(parsed).join() === 'event' ? String(parsed.event) : text);
    for (const waiter of waiters.splice(0)) waiter();
  });
  const closed = new Promise<Closed>((resolve) =>
    socket.once('close', (code, reason) => {
      resolve({ code, reason: reason.toString() });
      for (const waiter of waiters.splice(0)) waiter();
    }),
  );
  const feed: Feed = {
    socket,
    frames,
    get events() {
      return frames.filter((frame) => frame !== 'ping');
    },
    waitFor: (event, count = 1, timeoutMs = 5_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(`no ${event} (×${count}) within ${timeoutMs} ms; got ${frames.join()}`),
            ),
          timeoutMs,
        );
        const check = (): void => {
          if (frames.filter((frame) => frame === event).length >= count) {
            clearTimeout(timer);
            resolve();
          } else if (socket.readyState >= WebSocket.CLOSING) {
            clearTimeout(timer);
            reject(new Error(`socket closed before ${event}; got ${frames.join()}`));
          } else {
            waiters.push(check);
          }
        };
        check();
      }),
    closed,
    close: async () => {
      if (socket.readyState === WebSocket.CLOSED) return;
      socket.close();
      await closed;
    },
  };
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(feed));
    socket.once('error', reject);
  });
}

/** The status and body an upgrade is refused with (fails when the socket opens). */
export function refusal(
  baseUrl: string,
  options: FeedOptions = {},
): Promise<{ status: number; body: unknown }> {
  const socket = new WebSocket(feedUrl(baseUrl, options.query), options.protocols ?? [], {
    headers: options.headers,
  });
  return new Promise((resolve, reject) => {
    socket.once('open', () => {
      socket.terminate();
      reject(new Error('the upgrade was accepted'));
    });
    socket.once('unexpected-response', (_request, response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.once('end', () => {
        socket.terminate();
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as unknown });
      });
    });
    socket.once('error', (error) => {
      if (!/Unexpected server response/.test(error.message)) reject(error);
    });
  });
}
