import { BadRequestException, Injectable } from '@nestjs/common';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { ResponseCache } from '../../platform/http/response-cache.js';
import type { JsonText } from '../../platform/http/json-text.js';
import type {
  GroupStatisticsDto,
  TotalsByOrganizerDto,
  ValueOverTimeDto,
} from './dto/statistics.dto.js';
import { StatisticsRepository } from './statistics.repository.js';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A `YYYY-MM-DD` query value as midnight UTC (as Homebox reads it), `fallback` when absent or
 * empty; 400 for anything else, an impossible day included.
 */
export function parseDay(name: string, value: unknown, fallback: Date): Date {
  if (value === undefined || value === '') return fallback;
  const match = typeof value === 'string' ? DAY.exec(value) : null;
  if (match) {
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const date = new Date(0);
    date.setUTCFullYear(year, month - 1, day);
    if (
      date.getUTCFullYear() === year &&
      date.getUTCMonth() === month - 1 &&
      date.getUTCDate() === day
    ) {
      return date;
    }
  }
  throw new BadRequestException(`${name} must be a date as YYYY-MM-DD`);
}

/** Homebox's group statistics (notes §16), read in the caller's group; any member may read. */
@Injectable()
export class StatisticsService {
  constructor(private readonly statistics: StatisticsRepository) {}

  /** Location totals built lately, by group, with the version of the totals they show. */
  private readonly locationTotals = new ResponseCache();

  group(user: AuthUser): Promise<GroupStatisticsDto> {
    return this.statistics.groupTotals(user.groupId);
  }

  /** Defaults: `start` one month ago, `end` now. */
  async purchasePrice(user: AuthUser, start: unknown, end: unknown): Promise<ValueOverTimeDto> {
    const now = new Date();
    const monthAgo = new Date(now);
    monthAgo.setUTCMonth(monthAgo.getUTCMonth() - 1);
    const from = parseDay('start', start, monthAgo);
    const to = parseDay('end', end, now);
    if (from > to) throw new BadRequestException('start must not be after end');
    const row = await this.statistics.purchasePrice(user.groupId, from, to);
    return {
      valueAtStart: row.valueAtStart,
      valueAtEnd: row.valueAtEnd,
      start: from.toISOString(),
      end: to.toISOString(),
      entries: row.entries,
    };
  }

  /**
   * Per location, the sum of its direct items' purchase prices, as JSON: built once per version
   * of the group's location totals (`location_versions`) and carrying that version as its ETag.
   */
  async locations(user: AuthUser): Promise<JsonText<TotalsByOrganizerDto[]>> {
    const { groupId } = user;
    const version = await this.statistics.locationTotalsVersion(groupId);
    return this.locationTotals.json(groupId, version, () =>
      this.statistics.locationTotals(groupId),
    );
  }

  tags(user: AuthUser): Promise<TotalsByOrganizerDto[]> {
    return this.statistics.tagTotals(user.groupId);
  }
}
