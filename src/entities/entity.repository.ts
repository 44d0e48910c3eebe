import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.js';
import { EntityRecord } from './entity.record.js';

/** Reads and writes the `entities` table (more of the module's queries move here over time). */
@Injectable()
export class EntityRepository {
  constructor(private readonly db: Database) {}

  /** Adds locations of these names to a new group, with asset ids 1, 2, ... in that order. */
  async insertStarterLocations(
    groupId: string,
    locationTypeId: string,
    names: readonly string[],
  ): Promise<void> {
    await this.db.repository(EntityRecord).insert(
      names.map((name, index) => ({
        groupId,
        entityTypeId: locationTypeId,
        name,
        quantity: 1,
        assetId: String(index + 1),
      })),
    );
  }
}
