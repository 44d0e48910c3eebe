import { Injectable } from '@nestjs/common';
import type { SelectQueryBuilder } from 'typeorm';
import { Database } from '../../platform/database/database.js';
import { nameOrder } from '../../platform/database/name-order.js';
import { OwnedRepository, type GroupScope } from '../../platform/database/owned.js';
import type { MaintenanceStatus } from './dto/list-maintenance.query.dto.js';
import { COPY_ENTRIES, DELETE_ALL_OF_GROUP, DUE_ENTRIES } from './maintenance-entry.sql.js';
import { MaintenanceEntryRecord } from './maintenance-entry.record.js';

type EntryQuery = SelectQueryBuilder<MaintenanceEntryRecord>;

/** An entry due on a day, with its entity's group and name. */
export interface DueMaintenanceEntry {
  groupId: string;
  entityName: string;
  entryName: string;
}

export type MaintenanceEntryValues = Pick<
  MaintenanceEntryRecord,
  'name' | 'description' | 'date' | 'scheduledDate' | 'cost'
>;

/** An entry belongs to the group of its entity. */
const THROUGH_ENTITY: GroupScope = {
  join: 'JOIN entities owner ON owner.id = o.entity_id',
  condition: 'owner.group_id = $1',
};

/** The only code that reads or writes the `maintenance_entries` table. */
@Injectable()
export class MaintenanceEntryRepository extends OwnedRepository<MaintenanceEntryRecord> {
  constructor(db: Database) {
    super(db, MaintenanceEntryRecord, 'maintenance entry', THROUGH_ENTITY);
  }

  /** Entries scheduled on `day` (`YYYY-MM-DD`) and not completed, in every group. */
  findDueOn(day: string): Promise<DueMaintenanceEntry[]> {
    return this.db.query<DueMaintenanceEntry>(DUE_ENTRIES, [day]);
  }

  /**
   * The entries of one entity as of the day `today` (`YYYY-MM-DD`). scheduled: no completion
   * date or one after today, by scheduled date; completed: a completion date not after today,
   * latest first; both: all, by scheduled date then completion date, latest first.
   */
  findForEntity(
    entityId: string,
    status: MaintenanceStatus,
    today: string,
  ): Promise<MaintenanceEntryRecord[]> {
    const query = this.entries().where('m.entityId = :entityId', { entityId });
    switch (status) {
      case 'scheduled':
        query
          .andWhere('(m.date IS NULL OR m.date > :today)', { today })
          .orderBy('m.scheduledDate', 'ASC', 'NULLS LAST');
        break;
      case 'completed':
        query
          .andWhere('m.date IS NOT NULL AND m.date <= :today', { today })
          .orderBy('m.date', 'DESC');
        break;
      default:
        query
          .orderBy('m.scheduledDate', 'DESC', 'NULLS LAST')
          .addOrderBy('m.date', 'DESC', 'NULLS LAST');
    }
    return this.tieBreak(query).getMany();
  }

  /**
   * The entries of every entity of the group, with the id and name of their entity. scheduled:
   * no completion date; completed: a completion date; both: all. By scheduled date (unscheduled
   * last), then name.
   */
  findAll(groupId: string, status: MaintenanceStatus): Promise<MaintenanceEntryRecord[]> {
    const query = this.entries()
      .innerJoin('m.entity', 'e')
      .addSelect(['e.id', 'e.name'])
      .where('e.groupId = :groupId', { groupId });
    if (status === 'scheduled') query.andWhere('m.date IS NULL');
    if (status === 'completed') query.andWhere('m.date IS NOT NULL');
    query.orderBy('m.scheduledDate', 'ASC', 'NULLS LAST');
    return this.tieBreak(query).getMany();
  }

  /** The entries of one entity, oldest first. */
  findOfEntity(entityId: string): Promise<MaintenanceEntryRecord[]> {
    return this.db.repository(MaintenanceEntryRecord).find({
      where: { entityId },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  insert(entityId: string, values: MaintenanceEntryValues): Promise<MaintenanceEntryRecord> {
    const repository = this.db.repository(MaintenanceEntryRecord);
    return repository.save(repository.create({ entityId, ...values }));
  }

  save(record: MaintenanceEntryRecord): Promise<MaintenanceEntryRecord> {
    return this.db.repository(MaintenanceEntryRecord).save(record);
  }

  async delete(id: string): Promise<void> {
    await this.db.repository(MaintenanceEntryRecord).delete({ id });
  }

  /** Deletes the entries of all the group's entities; how many. */
  async deleteAllOfGroup(groupId: string): Promise<number> {
    const [row] = await this.db.query<{ count: number }>(DELETE_ALL_OF_GROUP, [groupId]);
    return row.count;
  }

  async copyAll(fromEntityId: string, toEntityId: string): Promise<void> {
    await this.db.query(COPY_ENTRIES, [fromEntityId, toEntityId]);
  }

  private entries(): EntryQuery {
    return this.db.repository(MaintenanceEntryRecord).createQueryBuilder('m');
  }

  /** Name order, the same on every server, for entries the sort keys do not tell apart. */
  private tieBreak(query: EntryQuery): EntryQuery {
    return query.addOrderBy(nameOrder('m'), 'ASC');
  }
}
