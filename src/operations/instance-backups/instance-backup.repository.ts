import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database.js';
import type { InstanceBackupState, InstanceBackupTrigger } from './instance-backup.record.js';
import {
  COUNT_BACKUPS,
  END_INTERRUPTED,
  INSERT_BACKUP,
  LIST_BACKUPS,
  SET_COMPLETED,
  SET_DELETED,
  SET_FAILED,
  SET_VERIFIED,
  SET_WRITTEN,
} from './instance-backup.sql.js';

/** A row of `instance_backups`. */
export interface InstanceBackupRow {
  id: string;
  name: string;
  trigger: InstanceBackupTrigger;
  state: InstanceBackupState;
  startedAt: Date;
  finishedAt: Date | null;
  /** bigint as text. */
  sizeBytes: string | null;
  /** bigint as text. */
  rowCount: string | null;
  fileCount: number | null;
  tables: Record<string, number> | null;
  encrypted: boolean;
  locations: string[];
  verifiedAt: Date | null;
  verification: 'passed' | 'failed' | null;
  error: string | null;
  deletedAt: Date | null;
}

/** The only code that reads or writes the `instance_backups` table. */
@Injectable()
export class InstanceBackupRepository {
  constructor(private readonly db: Database) {}

  async begin(values: {
    name: string;
    trigger: InstanceBackupTrigger;
    startedAt: Date;
    encrypted: boolean;
  }): Promise<InstanceBackupRow> {
    const [row] = await this.db.query<InstanceBackupRow>(INSERT_BACKUP, [
      values.name,
      values.trigger,
      values.startedAt,
      values.encrypted,
    ]);
    return row;
  }

  async written(
    id: string,
    values: { sizeBytes: number; rowCount: number; fileCount: number; tables: object },
  ): Promise<void> {
    await this.db.execute(SET_WRITTEN, [
      id,
      values.sizeBytes,
      values.rowCount,
      values.fileCount,
      JSON.stringify(values.tables),
    ]);
  }

  async verified(id: string, at: Date, passed: boolean): Promise<void> {
    await this.db.execute(SET_VERIFIED, [id, at, passed ? 'passed' : 'failed']);
  }

  async completed(id: string, locations: string[], at: Date): Promise<void> {
    await this.db.execute(SET_COMPLETED, [id, JSON.stringify(locations), at]);
  }

  async failed(id: string, at: Date, error: string): Promise<void> {
    await this.db.execute(SET_FAILED, [id, at, error]);
  }

  /** Backups still running that began before `before`: their process ended; marks them failed. */
  async endInterrupted(before: Date): Promise<void> {
    await this.db.execute(END_INTERRUPTED, [before]);
  }

  async deleted(names: string[], at: Date): Promise<void> {
    if (names.length > 0) await this.db.execute(SET_DELETED, [names, at]);
  }

  async page(limit: number, offset: number): Promise<{ rows: InstanceBackupRow[]; total: number }> {
    const rows = await this.db.query<InstanceBackupRow>(LIST_BACKUPS, [limit, offset]);
    const [{ count }] = await this.db.query<{ count: number }>(COUNT_BACKUPS);
    return { rows, total: count };
  }
}
