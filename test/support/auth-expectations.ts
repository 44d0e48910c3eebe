import { expect } from 'vitest';
import type { TestApp } from './test-app.js';

export const NO_TOKEN = { error: 'authorization header or query is required' };
export const BAD_TOKEN = { error: 'valid authorization token is required' };
export const VIEWER_ONLY_READS = { error: 'viewers of this collection can only read' };
/** The body of a 422 from validation: a message per field. */
export const validation = (fields: Record<string, string>) => ({
  error: 'Validation Error',
  fields,
});
export const OWNER_ONLY = { error: 'only the owner of this collection can perform this action' };

/** A token that looks like a session token but was never issued. */
export const FORGED_TOKEN = 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJub2JvZHkifQ.c2lnbmF0dXJl';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Asserts that a route answers 401 without a token and with tokens that were never issued. */
export async function expectUnauthenticated(
  trove: TestApp,
  method: Method,
  path: string,
  body?: object,
): Promise<void> {
  const bare = trove.http[method](path);
  const missing = await (body ? bare.send(body) : bare);
  expect(missing.status).toBe(401);
  expect(missing.body).toEqual(NO_TOKEN);
  for (const authorization of [FORGED_TOKEN, 'Bearer not-a-token']) {
    const forged = trove.http[method](path).set('Authorization', authorization);
    const response = await (body ? forged.send(body) : forged);
    expect(response.status).toBe(401);
    expect(response.body).toEqual(BAD_TOKEN);
  }
}
