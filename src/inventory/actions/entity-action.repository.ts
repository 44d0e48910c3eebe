import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database.js';
import {
  CLEAR_SENTINEL_DATES,
  FILL_MISSING_IMPORT_REFS,
  NUMBER_MISSING_ASSET_IDS,
} from '../entities/core/entity.sql.js';
import { countFrom } from '../entities/core/entity-statements.js';

/** The statements of the inventory-wide actions on the group's entities (EntityActionsService). */
@Injectable()
export class EntityActionRepository {
  constructor(private readonly db: Database) {}

  /**
   * Numbers the group's entities without an asset id (0) after its highest, oldest first; how
   * many it numbered. The first statement locks the group row until the unit of work ends (as an
   * insert does), so no entity created meanwhile can take one of those numbers.
   */
  async numberMissingAssetIds(groupId: string): Promise<number> {
    const [next] = await this.db.query<{ first: string }>(
      'SELECT entity_next_asset_id($1) AS first',
      [groupId],
    );
    return countFrom(this.db, NUMBER_MISSING_ASSET_IDS, [groupId, next.first]);
  }

  /** Gives the group's entities without an import ref a random one; how many it changed. */
  fillMissingImportRefs(groupId: string): Promise<number> {
    return countFrom(this.db, FILL_MISSING_IMPORT_REFS, [groupId]);
  }

  /** Clears the group's purchase, sold and warranty dates before year 100; entities changed. */
  clearSentinelDates(groupId: string): Promise<number> {
    return countFrom(this.db, CLEAR_SENTINEL_DATES, [groupId]);
  }
}
