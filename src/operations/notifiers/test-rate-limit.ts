import { HttpException, HttpStatus } from '@nestjs/common';

const WINDOW_MS = 60_000;

export class TooManyTestMessagesException extends HttpException {
  constructor(readonly retryAfterSeconds: number) {
    super('too many test messages; try again later', HttpStatus.TOO_MANY_REQUESTS);
  }
}

/**
 * At most `limit` test messages per minute for each key (a user, a client address): a sliding
 * window kept in this instance's memory (several instances each allow as many).
 */
export class TestMessageRateLimit {
  private readonly sent = new Map<string, number[]>();

  constructor(private readonly limit: number) {}

  /** Counts one message for every key, or throws 429 (counting none) if any key is spent. */
  take(keys: string[], now = Date.now()): void {
    let waitMs = 0;
    for (const key of keys) {
      const recent = (this.sent.get(key) ?? []).filter((at) => at > now - WINDOW_MS);
      this.sent.set(key, recent);
      if (recent.length >= this.limit) waitMs = Math.max(waitMs, recent[0] + WINDOW_MS - now);
    }
    if (waitMs > 0) throw new TooManyTestMessagesException(Math.max(1, Math.ceil(waitMs / 1000)));
    for (const key of keys) this.sent.get(key)!.push(now);
    this.prune(now);
  }

  /** Drops keys with no message in the window, so the map does not grow without bound. */
  private prune(now: number): void {
    if (this.sent.size < 10_000) return;
    for (const [key, times] of this.sent) {
      if (times.every((at) => at <= now - WINDOW_MS)) this.sent.delete(key);
    }
  }
}
