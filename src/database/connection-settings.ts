/**
 * Settings of every connection of Trove's pool. Statements Trove prepares (`Database.prepared`:
 * fixed texts whose plan does not depend on the values) run with one generic plan per
 * connection, planned once, instead of being planned again for every call, which for the large
 * view statements costs more than running them; other statements are sent unnamed and planned
 * with their values, as always. No JIT compilation: no statement of Trove's runs long enough
 * to repay it.
 */
export const CONNECTION_SETTINGS = '-c plan_cache_mode=force_generic_plan -c jit=off';
