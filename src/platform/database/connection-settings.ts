import type pg from 'pg';

/**
 * Settings of every connection of Trove's pool. Statements Trove prepares (`Database.prepared`:
 * fixed texts whose plan does not depend on the values) run with one generic plan per
 * connection, planned once, instead of being planned again for every call, which for the large
 * view statements costs more than running them; other statements are sent unnamed and planned
 * with their values, as always. No JIT compilation: no statement of Trove's runs long enough
 * to repay it. Set by a statement when a connection opens (not as startup options, which
 * connection poolers such as PgBouncer refuse).
 */
export const CONNECTION_SETTINGS = 'SET plan_cache_mode = force_generic_plan; SET jit = off';

/** Applies `CONNECTION_SETTINGS` to a new connection (a pool's `onConnect`). */
export async function applyConnectionSettings(client: pg.ClientBase): Promise<void> {
  await client.query(CONNECTION_SETTINGS);
}
