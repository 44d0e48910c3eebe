import { CREDENTIAL_NOTICES } from './identity/auth/credential-notices.schema.js';
import { ASSET_IDS } from './inventory/entities/core/asset-ids.schema.js';
import { ENTITY_COUNTS } from './inventory/entities/core/entity-counts.schema.js';
import { LOCATION_VERSIONS } from './inventory/entities/core/location-versions.schema.js';
import { ENTITY_HISTORY } from './inventory/history/entity-history.schema.js';
import { STOCK_ALERTS } from './inventory/stock/stock-alerts.schema.js';
import { TAG_MATCH_COUNTS } from './inventory/tags/tag-match-counts.schema.js';
import { TAG_MATCHES } from './inventory/tags/tag-matches.schema.js';
import { TAG_VALUES } from './inventory/tags/tag-values.schema.js';
import type { DatabaseLogic } from './platform/database/schema/database-logic.js';

/**
 * Everything PostgreSQL does on its own, by the module that owns it (one file per table it keeps;
 * docs/derived-data.md says who reads each). Like `records.ts`, this list sits above every module
 * and is handed down to the code that needs all of them: the test that checks them against the
 * migrated database, and the benchmark of the maintained tables. In the order they can be created.
 */
export const DATABASE_LOGIC: readonly DatabaseLogic[] = [
  CREDENTIAL_NOTICES,
  ASSET_IDS,
  ENTITY_COUNTS,
  LOCATION_VERSIONS,
  TAG_VALUES,
  TAG_MATCHES,
  TAG_MATCH_COUNTS,
  STOCK_ALERTS,
  ENTITY_HISTORY,
];

/** The tables the database maintains itself. */
export const MAINTAINED_TABLES: readonly string[] = DATABASE_LOGIC.flatMap((logic) => logic.tables);
