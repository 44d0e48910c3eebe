import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ValidationFailedException } from '../../platform/errors/validation-failed.exception.js';
import { Transactional } from '@nestjs-cls/transactional';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import type { CsvDownload } from '../../platform/http/csv-download.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { EntitiesService } from '../entities/core/entities.service.js';
import { addDays, dayIn } from '../../platform/calendar/calendar-day.js';
import type { EntityStockDto } from './dto/entity-stock.dto.js';
import { DEFAULT_EXPIRY_WINDOW_DAYS } from './dto/list-expiring.query.dto.js';
import type { CreateStockAdjustmentDto } from './dto/create-stock-adjustment.dto.js';
import type { StockAdjustmentDto } from './dto/stock-adjustment.dto.js';
import type {
  ExpiringItemDto,
  LowStockItemDto,
  StockedItem,
  StockListPage,
} from './dto/stock-listing.dto.js';
import type { UpdateEntityStockDto } from './dto/update-entity-stock.dto.js';
import {
  LOW_STOCK_CSV_HEADER,
  NO_STOCK,
  toEntityStock,
  toExpiringItem,
  toLowStockCsvRow,
  toLowStockItem,
  toStockAdjustment,
  toStockedItem,
} from './entity-stock.mapper.js';
import {
  EntityStockRepository,
  type ClaimedAlert,
  type UnannouncedExpiry,
} from './entity-stock.repository.js';
import { Readable } from 'node:stream';

export type { ClaimedAlert, UnannouncedExpiry } from './entity-stock.repository.js';

/**
 * Stock levels of entities: each entity's settings (minimum, reorder quantity, expiry day,
 * notes), the group's low-stock and expiring listings, what the daily reminder lists, and the
 * outbox of low-stock alerts the database writes, which `StockAlertsService` (operations/
 * reminders) drains into notifier messages.
 */
@Injectable()
export class StockService {
  constructor(
    private readonly stock: EntityStockRepository,
    private readonly entities: EntitiesService,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  /**
   * Gives entity `toId` the settings of entity `fromId` (both of the group), in the caller's unit
   * of work: a duplicate takes the settings of the entity it copies.
   */
  async copy(groupId: string, fromId: string, toId: string): Promise<void> {
    await this.stock.copy(fromId, toId, groupId);
  }

  /** The settings of an entity of the group (404 for any other); nulls and "" when it has none. */
  async get(user: AuthUser, entityId: string): Promise<EntityStockDto> {
    const entity = await this.entities.findOwned(user, entityId);
    return toEntityStock(entity.id, (await this.stock.find(entity.id, user.groupId)) ?? NO_STOCK);
  }

  /** Replaces the settings of an entity of the group: what is omitted is cleared. */
  @Transactional()
  async replace(
    user: AuthUser,
    entityId: string,
    dto: UpdateEntityStockDto,
  ): Promise<EntityStockDto> {
    const entity = await this.entities.findOwned(user, entityId);
    const stored = await this.stock.upsert(entity.id, user.groupId, {
      minQuantity: dto.minQuantity ?? null,
      reorderQuantity: dto.reorderQuantity ?? null,
      expiresOn: dto.expiresOn ?? null,
      notes: dto.notes ?? '',
    });
    // The entity was found a moment ago; gone since means deleted meanwhile.
    if (!stored) return this.get(user, entityId);
    return toEntityStock(entity.id, stored);
  }

  /** Clears the settings of an entity of the group (none is fine). */
  @Transactional()
  async remove(user: AuthUser, entityId: string): Promise<void> {
    const entity = await this.entities.findOwned(user, entityId);
    await this.stock.delete(entity.id, user.groupId);
  }

  /** The group's entities at or below their minimum, by location path, then name. */
  async low(user: AuthUser): Promise<LowStockItemDto[]> {
    return (await this.stock.findLow(user.groupId)).map(toLowStockItem);
  }

  /** The low-stock listing as a CSV shopping list. */
  async lowCsv(user: AuthUser): Promise<CsvDownload> {
    const items = await this.low(user);
    return {
      disposition: 'attachment; filename="low-stock.csv"',
      header: LOW_STOCK_CSV_HEADER,
      rows: Readable.from(items.map(toLowStockCsvRow)),
    };
  }

  /**
   * The group's entities that expire within `within` days of today (the reminders' time zone)
   * or have expired, by expiry day, then name.
   */
  async expiring(
    user: AuthUser,
    within = DEFAULT_EXPIRY_WINDOW_DAYS,
    now = new Date(),
  ): Promise<ExpiringItemDto[]> {
    const today = dayIn(this.config.get('reminders', { infer: true }).timeZone, now);
    const rows = await this.stock.findExpiring(user.groupId, addDays(today, within), today);
    return rows.map(toExpiringItem);
  }

  /** A page of the group's entities with stock settings (not archived), by name. */
  async stocked(
    user: AuthUser,
    page: number,
    pageSize: number,
  ): Promise<StockListPage<StockedItem>> {
    const found = await this.stock.findStockedPage(user.groupId, pageSize, (page - 1) * pageSize);
    return { page, pageSize, total: found.total, items: found.rows.map(toStockedItem) };
  }

  /** A page of `low`. */
  async lowPage(
    user: AuthUser,
    page: number,
    pageSize: number,
  ): Promise<StockListPage<LowStockItemDto>> {
    const found = await this.stock.findLowPage(user.groupId, pageSize, (page - 1) * pageSize);
    return { page, pageSize, total: found.total, items: found.rows.map(toLowStockItem) };
  }

  /** A page of `expiring`. */
  async expiringPage(
    user: AuthUser,
    within: number,
    page: number,
    pageSize: number,
    now = new Date(),
  ): Promise<StockListPage<ExpiringItemDto>> {
    const today = dayIn(this.config.get('reminders', { infer: true }).timeZone, now);
    const found = await this.stock.findExpiringPage(
      user.groupId,
      addDays(today, within),
      today,
      pageSize,
      (page - 1) * pageSize,
    );
    return { page, pageSize, total: found.total, items: found.rows.map(toExpiringItem) };
  }

  /**
   * Sets the quantity of an entity of the group (`quantity`), or changes it by `change`, and
   * records the adjustment with its reason; the entity's history holds both as one change. A
   * quantity brought to or below the minimum alerts the group, as any change of it does.
   */
  @Transactional()
  async adjust(
    user: AuthUser,
    entityId: string,
    dto: CreateStockAdjustmentDto,
  ): Promise<StockAdjustmentDto> {
    if (dto.quantity === undefined && dto.change === undefined) {
      throw ValidationFailedException.forField('quantity', 'give quantity or change');
    }
    if (dto.quantity !== undefined && dto.change !== undefined) {
      throw ValidationFailedException.forField(
        'change',
        'give either quantity or change, not both',
      );
    }
    const entity = await this.entities.findOwned(user, entityId, { lock: true });
    const before = entity.quantity;
    const after = dto.quantity ?? before + (dto.change ?? 0);
    if (after < 0) {
      throw ValidationFailedException.forField(
        'change',
        `change would take the quantity below 0 (it is ${before})`,
      );
    }
    await this.entities.setQuantity(user.groupId, entity.id, after);
    return toStockAdjustment(
      await this.stock.insertAdjustment(user.groupId, entity.id, before, after, dto.reason),
    );
  }

  /**
   * For the daily reminder: entities of every group that expire on or before `until` (expired
   * ones included) and whose expiry day has not been announced; by group, expiry day, name.
   */
  unannouncedExpiring(until: string): Promise<UnannouncedExpiry[]> {
    return this.stock.findUnannouncedExpiring(until);
  }

  /** Records these expiry days as announced, in the caller's unit of work. */
  markExpiryAnnounced(items: { id: string; expiresOn: string }[]): Promise<void> {
    return this.stock.markExpiryAnnounced(items);
  }

  /** Claims and deletes up to `limit` low-stock alerts, in the caller's unit of work. */
  claimAlerts(limit: number): Promise<ClaimedAlert[]> {
    return this.stock.claimAlerts(limit);
  }

  /**
   * Brings every low flag that disagrees with its entity up to date, alerting a crossing into
   * low as the database's triggers would (for a change that raced with another).
   */
  async reconcileLow(): Promise<void> {
    await this.stock.reconcileLow();
  }
}
