import type { Response } from 'express';

/** An answer already written as JSON, with its ETag when it has a version (KeptAnswers). */
export interface JsonAnswer {
  body: Buffer;
  etag?: string;
}

/** Bytes of JSON as the body of a route handler's own answer. */
export const jsonAnswer = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

/**
 * Sends `answer` as the JSON answer of a handler that takes `@Res()`: with its ETag, a request
 * whose `If-None-Match` names it gets 304 and no body (Express compares them).
 */
export function sendJsonAnswer(response: Response, answer: JsonAnswer): void {
  if (answer.etag) response.setHeader('ETag', answer.etag);
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.send(answer.body);
}
