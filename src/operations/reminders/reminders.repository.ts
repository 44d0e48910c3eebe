import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database.js';
import {
  ANNOUNCE,
  ANNOUNCED,
  CLAIM_DAY,
  PURGE_ANNOUNCEMENTS,
  PURGE_RUNS,
  RELEASE_DAY,
} from './reminders.sql.js';

/** An entity's warranty end day. */
export interface WarrantyEnd {
  id: string;
  warrantyExpires: string;
}

/** The only code that reads or writes `reminder_runs` and `warranty_announcements`. */
@Injectable()
export class RemindersRepository {
  constructor(private readonly db: Database) {}

  /**
   * Claims the group's reminder of `day`; false when another run has it. The claim waits for a
   * concurrent claimer's unit of work, so exactly one of them gets it.
   */
  async claimDay(groupId: string, day: string): Promise<boolean> {
    const rows = await this.db.query(CLAIM_DAY, [groupId, day]);
    return rows.length === 1;
  }

  async releaseDay(groupId: string, day: string): Promise<void> {
    await this.db.query(RELEASE_DAY, [groupId, day]);
  }

  /** The warranty end days of `ends` not yet announced. */
  async unannounced<T extends WarrantyEnd>(ends: T[]): Promise<T[]> {
    if (ends.length === 0) return [];
    const rows = await this.db.query<WarrantyEnd>(ANNOUNCED, columns(ends));
    const announced = new Set(rows.map((row) => `${row.id}/${row.warrantyExpires}`));
    return ends.filter((end) => !announced.has(`${end.id}/${end.warrantyExpires}`));
  }

  async markAnnounced(ends: WarrantyEnd[]): Promise<void> {
    if (ends.length > 0) await this.db.query(ANNOUNCE, columns(ends));
  }

  /** Forgets claims of days before `day` and announcements of end days before it. */
  async purgeBefore(day: string): Promise<void> {
    await this.db.query(PURGE_RUNS, [day]);
    await this.db.query(PURGE_ANNOUNCEMENTS, [day]);
  }
}

const columns = (ends: WarrantyEnd[]): [string[], string[]] => [
  ends.map((end) => end.id),
  ends.map((end) => end.warrantyExpires),
];
