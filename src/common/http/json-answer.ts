import type { Response } from 'express';

/**
 * An answer already written as JSON (by PostgreSQL, or kept from an earlier request), which a
 * route handler returns and the HTTP adapter (`TroveExpressAdapter`) sends as it is, with its
 * ETag when it has one: a request whose `If-None-Match` names it gets 304 and no body. `T` is
 * the shape the JSON holds, for the handler's signature. Serialised inside another value (a
 * stored idempotent response), it stands for that value.
 */
export class JsonAnswer<T = unknown> {
  constructor(
    readonly body: string | Buffer,
    readonly etag?: string,
  ) {}

  /** `value` written as JSON. */
  static of<T>(value: T, etag?: string): JsonAnswer<T> {
    return new JsonAnswer<T>(JSON.stringify(value), etag);
  }

  /** The value the JSON holds, for code that needs it as an object. */
  value(): T {
    return JSON.parse(this.body.toString()) as T;
  }

  toJSON(): T {
    return this.value();
  }
}

/** Sends `answer` on `response` (see `JsonAnswer`), with `statusCode` if given. */
export function sendJsonAnswer(response: Response, answer: JsonAnswer, statusCode?: number): void {
  if (statusCode !== undefined) response.status(statusCode);
  if (answer.etag) response.setHeader('ETag', answer.etag);
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.send(answer.body);
}
