import { expect } from 'vitest';
import type { Method } from './auth-expectations.js';
import type { Session } from './factories.js';
import type { TestApp } from './test-app.js';

/** A well-formed id that no row has. */
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** A request as `session`, optionally in the group `tenant` (`X-Tenant`). */
export function as(
  trove: TestApp,
  session: Session,
  method: Method | 'head',
  path: string,
  tenant?: string,
): ReturnType<TestApp['http']['get']> {
  const request = trove.http[method](path).set('Authorization', session.authorization);
  return tenant ? request.set('X-Tenant', tenant) : request;
}

/** An entity's summary view as the API answers it. */
export interface EntityBody {
  id: string;
  name: string;
  assetId: string;
  [key: string]: unknown;
}

/** Creates an entity through the API (a name, or a whole body) and returns its summary view. */
export async function createEntity<T extends { id: string } = EntityBody>(
  trove: TestApp,
  session: Session,
  body: string | Record<string, unknown> = 'Camera',
): Promise<T> {
  const response = await as(trove, session, 'post', '/api/v1/entities').send(
    typeof body === 'string' ? { name: body } : body,
  );
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as T;
}
