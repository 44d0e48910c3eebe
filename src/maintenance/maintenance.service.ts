import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import type { AuthUser } from '../auth/auth-user.js';
import { ValidationFailedException } from '../common/errors/validation-failed.exception.js';
import { EntitiesService } from '../entities/entities.service.js';
import {
  NO_DATE_MESSAGE,
  type CreateMaintenanceEntryDto,
} from './dto/create-maintenance-entry.dto.js';
import type { MaintenanceStatus } from './dto/list-maintenance.query.dto.js';
import type {
  MaintenanceEntrySummaryDto,
  MaintenanceEntryWithDetailsDto,
} from './dto/maintenance-entry-summary.dto.js';
import type { UpdateMaintenanceEntryDto } from './dto/update-maintenance-entry.dto.js';
import { toMaintenanceEntry, toMaintenanceEntryWithDetails } from './maintenance-entry.mapper.js';
import { MaintenanceEntryRecord } from './maintenance-entry.record.js';

type EntryQuery = SelectQueryBuilder<MaintenanceEntryRecord>;

/** Today's date in UTC as `YYYY-MM-DD`: what "in the future" is measured against. */
const today = (): string => new Date().toISOString().slice(0, 10);

/**
 * Maintenance entries of entities. An entry belongs to the group of its entity, so every query
 * joins the entity and checks its group.
 */
@Injectable()
export class MaintenanceService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly entities: EntitiesService,
  ) {}

  /**
   * The entries of one entity of the group (404 for any other entity). scheduled: no completion
   * date or one in the future, by scheduled date; completed: a completion date not in the
   * future, latest first; both: all, by scheduled date then completion date, latest first.
   */
  async listForEntity(
    user: AuthUser,
    entityId: string,
    status: MaintenanceStatus = 'both',
  ): Promise<MaintenanceEntryWithDetailsDto[]> {
    const entity = await this.entities.findOwnedOrFail(user, entityId);
    const query = this.ownedQuery(this.dataSource.manager, user).andWhere(
      'm.entityId = :entityId',
      {
        entityId: entity.id,
      },
    );
    switch (status) {
      case 'scheduled':
        query
          .andWhere('(m.date IS NULL OR m.date > :today)', { today: today() })
          .orderBy('m.scheduledDate', 'ASC', 'NULLS LAST');
        break;
      case 'completed':
        query
          .andWhere('m.date IS NOT NULL AND m.date <= :today', { today: today() })
          .orderBy('m.date', 'DESC');
        break;
      default:
        query
          .orderBy('m.scheduledDate', 'DESC', 'NULLS LAST')
          .addOrderBy('m.date', 'DESC', 'NULLS LAST');
    }
    const records = await this.tieBreak(query).getMany();
    return records.map((record) => toMaintenanceEntryWithDetails(record, entity));
  }

  /**
   * The entries of every entity of the group. scheduled: no completion date; completed: a
   * completion date; both: all. By scheduled date (unscheduled last), then name.
   */
  async list(
    user: AuthUser,
    status: MaintenanceStatus = 'both',
  ): Promise<MaintenanceEntryWithDetailsDto[]> {
    const query = this.ownedQuery(this.dataSource.manager, user).addSelect(['e.id', 'e.name']);
    if (status === 'scheduled') query.andWhere('m.date IS NULL');
    if (status === 'completed') query.andWhere('m.date IS NOT NULL');
    query.orderBy('m.scheduledDate', 'ASC', 'NULLS LAST');
    const records = await this.tieBreak(query).getMany();
    return records.map((record) => toMaintenanceEntryWithDetails(record, record.entity!));
  }

  /** Adds an entry to an entity of the group; 404 (nothing written) for any other entity. */
  async create(
    user: AuthUser,
    entityId: string,
    dto: CreateMaintenanceEntryDto,
  ): Promise<MaintenanceEntrySummaryDto> {
    const values = valuesOf(dto);
    return this.dataSource.transaction(async (manager) => {
      const entity = await this.entities.findOwnedOrFail(user, entityId, manager);
      const record = await manager.save(
        MaintenanceEntryRecord,
        manager.create(MaintenanceEntryRecord, { entityId: entity.id, ...values }),
      );
      return toMaintenanceEntry(record);
    });
  }

  /** Full replacement: omitted dates become none, description "" and cost 0. */
  async update(
    user: AuthUser,
    id: string,
    dto: UpdateMaintenanceEntryDto,
  ): Promise<MaintenanceEntrySummaryDto> {
    const values = valuesOf(dto);
    return this.dataSource.transaction(async (manager) => {
      const record = await this.findOwnedIn(manager, user, id);
      Object.assign(record, values);
      return toMaintenanceEntry(await manager.save(record));
    });
  }

  async remove(user: AuthUser, id: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const record = await this.findOwnedIn(manager, user, id);
      await manager.delete(MaintenanceEntryRecord, { id: record.id });
    });
  }

  /** An entry of an entity of the caller's group, or 404 `maintenance entry <id> not found`. */
  async findOwnedOrFail(user: AuthUser, id: string): Promise<MaintenanceEntryRecord> {
    return this.findOwnedIn(this.dataSource.manager, user, id);
  }

  private async findOwnedIn(
    manager: EntityManager,
    user: AuthUser,
    id: string,
  ): Promise<MaintenanceEntryRecord> {
    const record = await this.ownedQuery(manager, user)
      .andWhere('m.id = :id', { id })
      .setLock('pessimistic_write', undefined, ['m'])
      .getOne();
    if (!record) throw new NotFoundException(`maintenance entry ${id} not found`);
    return record;
  }

  /** Entries whose entity is in the caller's group. */
  private ownedQuery(manager: EntityManager, user: AuthUser): EntryQuery {
    return manager
      .getRepository(MaintenanceEntryRecord)
      .createQueryBuilder('m')
      .innerJoin('m.entity', 'e')
      .where('e.groupId = :groupId', { groupId: user.groupId });
  }

  /** Name order, the same on every server, for entries the sort keys do not tell apart. */
  private tieBreak(query: EntryQuery): EntryQuery {
    return query
      .addOrderBy('lower(m.name) COLLATE "C"', 'ASC')
      .addOrderBy('m.name COLLATE "C"', 'ASC')
      .addOrderBy('m.id', 'ASC');
  }
}

/** What a create or full update writes; 422 when neither date is set. */
function valuesOf(
  dto: CreateMaintenanceEntryDto,
): Pick<MaintenanceEntryRecord, 'name' | 'description' | 'date' | 'scheduledDate' | 'cost'> {
  const date = dto.completedDate ?? null;
  const scheduledDate = dto.scheduledDate ?? null;
  if (date === null && scheduledDate === null) {
    throw ValidationFailedException.forField('completedDate', NO_DATE_MESSAGE);
  }
  return {
    name: dto.name,
    description: dto.description ?? '',
    date,
    scheduledDate,
    cost: dto.cost ?? '0',
  };
}
