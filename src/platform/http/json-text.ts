import { randomUUID } from 'node:crypto';
import type { Response } from 'express';

/**
 * A response body already written as JSON (by PostgreSQL, or kept from an earlier request), which a
 * route handler returns and the HTTP adapter (`TroveExpressAdapter`) sends as it is, with its
 * ETag when it has one: a request whose `If-None-Match` names it gets 304 and no body. `T` is
 * the shape the JSON holds, for the handler's signature. Serialised inside another value (a
 * stored idempotent response), it stands for that value.
 */
export class JsonText<T = unknown> {
  constructor(
    readonly body: string | Buffer,
    readonly etag?: string,
  ) {}

  /** `value` written as JSON (`writeJson`: a `bigint` as a JSON number). */
  static of<T>(value: T, etag?: string): JsonText<T> {
    return new JsonText<T>(writeJson(value), etag);
  }

  /** The value the JSON holds, for code that needs it as an object. */
  value(): T {
    return JSON.parse(this.body.toString()) as T;
  }

  toJSON(): T {
    return this.value();
  }
}

/** Sends `json` on `response` (see `JsonText`), with `statusCode` if given. */
export function sendJsonText(response: Response, json: JsonText, statusCode?: number): void {
  if (statusCode !== undefined) response.status(statusCode);
  if (json.etag) response.setHeader('ETag', json.etag);
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.send(json.body);
}

/**
 * `value` as JSON text, as `JSON.stringify` writes it, except that a `bigint` is written as a
 * JSON number with all its digits (a whole number above 2^53, such as an asset id, that a
 * JavaScript number would round). Each one is first written as a string carrying a marker no
 * other text holds, then the quotes and the marker are taken off.
 */
export function writeJson(value: unknown): string {
  let marker: string | undefined;
  const text = JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item !== 'bigint') return item;
    marker ??= `bigint:${randomUUID()}:`;
    return `${marker}${item}`;
  }) as string | undefined;
  if (text === undefined) throw new TypeError('the value has no JSON form');
  return marker === undefined
    ? text
    : text.replaceAll(new RegExp(`"${marker}(-?\\d+)"`, 'g'), '$1');
}
