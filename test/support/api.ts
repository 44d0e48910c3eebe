import { afterAll, beforeAll, expect } from 'vitest';
import type { Method } from './auth-expectations.js';
import { signUp, type Session } from './factories.js';
import { createTestApp, secondInstance, type SecondInstance, type TestApp } from './test-app.js';

/** A well-formed id that no row has. */
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** A request as `session`, optionally in the group `tenant` (`X-Tenant`). */
export function as(
  trove: Pick<TestApp, 'http'>,
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
  trove: Pick<TestApp, 'http'>,
  session: Session,
  body: string | Record<string, unknown> = 'Camera',
): Promise<T> {
  const response = await as(trove, session, 'post', '/api/v1/entities').send(
    typeof body === 'string' ? { name: body } : body,
  );
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as T;
}

/** The app and users the tests of one file share. */
export interface SharedTestApp {
  trove: TestApp;
  /** A user with a group of their own. */
  owner: Session;
  /** A user of another group. */
  stranger: Session;
}

/**
 * Boots an app with an owner and a stranger before the tests of the calling file (then runs
 * `setup`, for what its tests share) and closes it after them. The returned object is filled in
 * by then.
 */
export function useSharedApp(
  setup?: (shared: SharedTestApp) => Promise<void> | void,
): SharedTestApp {
  const shared = {} as SharedTestApp;
  beforeAll(async () => {
    shared.trove = await createTestApp();
    shared.owner = await signUp(shared.trove);
    shared.stranger = await signUp(shared.trove);
    await setup?.(shared);
  });
  afterAll(() => shared.trove.close());
  return shared;
}

/**
 * Boots an app (with these configuration variables) before the tests of the calling file and
 * closes it after them; `.trove` is set by the time the file's own hooks and tests run.
 */
export function useTestApp(env?: Record<string, string>): { trove: TestApp } {
  const shared = {} as { trove: TestApp };
  beforeAll(async () => {
    shared.trove = await createTestApp(env);
  });
  afterAll(() => shared.trove.close());
  return shared;
}

/**
 * Starts a second instance of the shared app (on its database) before the tests of the calling
 * file and closes it after them; `.instance` is set by the time the tests run.
 */
export function useSecondInstance(shared: { trove: TestApp }): { instance: SecondInstance } {
  const second = {} as { instance: SecondInstance };
  beforeAll(async () => {
    second.instance = await secondInstance(shared.trove);
  });
  afterAll(() => second.instance.app.close());
  return second;
}
