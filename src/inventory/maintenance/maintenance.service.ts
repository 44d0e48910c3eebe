import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { ValidationFailedException } from '../../platform/errors/validation-failed.exception.js';
import { EntitiesService } from '../entities/core/entities.service.js';
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
import {
  MaintenanceEntryRepository,
  type DueMaintenanceEntry,
  type MaintenanceEntryValues,
} from './maintenance-entry.repository.js';
export type { DueMaintenanceEntry } from './maintenance-entry.repository.js';
import { toMaintenanceEntry, toMaintenanceEntryWithDetails } from './maintenance-entry.mapper.js';
import type { MaintenanceEntryRecord } from './maintenance-entry.record.js';

/** Today's date in UTC as `YYYY-MM-DD`: what "in the future" is measured against. */
const today = (): string => new Date().toISOString().slice(0, 10);

/**
 * Maintenance entries of entities. An entry belongs to the group of its entity, so every query
 * goes through the entity and its group.
 */
@Injectable()
export class MaintenanceService {
  constructor(
    private readonly entries: MaintenanceEntryRepository,
    private readonly entities: EntitiesService,
  ) {}

  /** Gives entity `toId` copies of the entries of entity `fromId`, in the caller's unit of work. */
  async copyAll(fromId: string, toId: string): Promise<void> {
    await this.entries.copyAll(fromId, toId);
  }

  /** Deletes the entries of every entity of the group, in the caller's unit of work; how many. */
  deleteAllOfGroup(groupId: string): Promise<number> {
    return this.entries.deleteAllOfGroup(groupId);
  }

  /** Entries of every group scheduled on `day` (`YYYY-MM-DD`) and not completed, by group. */
  dueOn(day: string): Promise<DueMaintenanceEntry[]> {
    return this.entries.findDueOn(day);
  }

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
    const entity = await this.entities.findOwned(user, entityId);
    const records = await this.entries.findForEntity(entity.id, status, today());
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
    const records = await this.entries.findAll(user.groupId, status);
    return records.map((record) => toMaintenanceEntryWithDetails(record, record.entity!));
  }

  /** Adds an entry to an entity of the group; 404 (nothing written) for any other entity. */
  @Transactional()
  async create(
    user: AuthUser,
    entityId: string,
    dto: CreateMaintenanceEntryDto,
  ): Promise<MaintenanceEntrySummaryDto> {
    const values = valuesOf(dto);
    const entity = await this.entities.findOwned(user, entityId);
    return toMaintenanceEntry(await this.entries.insert(entity.id, values));
  }

  /** Full replacement: omitted dates become none, description "" and cost 0. */
  @Transactional()
  async update(
    user: AuthUser,
    id: string,
    dto: UpdateMaintenanceEntryDto,
  ): Promise<MaintenanceEntrySummaryDto> {
    const values = valuesOf(dto);
    const record = await this.entries.findOwned(user.groupId, id, { lock: true });
    Object.assign(record, values);
    return toMaintenanceEntry(await this.entries.save(record));
  }

  @Transactional()
  async remove(user: AuthUser, id: string): Promise<void> {
    const record = await this.entries.findOwned(user.groupId, id, { lock: true });
    await this.entries.delete(record.id);
  }

  /** An entry of an entity of the caller's group, or 404 `maintenance entry <id> not found`. */
  async findOwnedOrFail(user: AuthUser, id: string): Promise<MaintenanceEntryRecord> {
    return this.entries.findOwned(user.groupId, id);
  }

  /** The entries of an entity, oldest first. */
  async listOfEntity(entityId: string): Promise<MaintenanceEntryRecord[]> {
    return this.entries.findOfEntity(entityId);
  }
}

/** What a create or full update writes; 422 when neither date is set. */
function valuesOf(dto: CreateMaintenanceEntryDto): MaintenanceEntryValues {
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
