import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { Database } from '../../platform/database/database.js';
import type { GroupExportKind, GroupExportStatus } from './group-export-status.js';
import {
  ARTIFACTS_OF_GROUP,
  COMPLETE_JOB,
  DELETE_JOB,
  DELETE_JOBS,
  FAIL_JOB,
  FIND_JOB,
  FIND_JOB_BY_ID,
  INSERT_JOB,
  LIST_JOBS,
  SET_PROGRESS,
  SNAPSHOT,
  STALE_JOBS,
  START_JOB,
} from './group-export.sql.js';

/** A row of `group_exports`. */
export interface GroupExportRow {
  id: string;
  groupId: string;
  userId: string | null;
  kind: GroupExportKind;
  status: GroupExportStatus;
  progress: number;
  artifactKey: string | null;
  /** bigint as text. */
  sizeBytes: string;
  error: string | null;
  attempt: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The only code that reads or writes the `group_exports` table. */
@Injectable()
export class GroupExportRepository {
  constructor(private readonly db: Database) {}

  async insert(values: {
    groupId: string;
    userId: string;
    kind: GroupExportKind;
    artifactKey: string | null;
    sizeBytes: number;
  }): Promise<GroupExportRow> {
    const [row] = await this.db.query<GroupExportRow>(INSERT_JOB, [
      values.groupId,
      values.userId,
      values.kind,
      values.artifactKey,
      values.sizeBytes,
    ]);
    return row;
  }

  list(groupId: string): Promise<GroupExportRow[]> {
    return this.db.query<GroupExportRow>(LIST_JOBS, [groupId]);
  }

  async find(groupId: string, id: string): Promise<GroupExportRow | null> {
    if (!isUUID(id, 'all')) return null;
    const [row] = await this.db.query<GroupExportRow>(FIND_JOB, [groupId, id]);
    return row ?? null;
  }

  async findById(id: string): Promise<GroupExportRow | null> {
    const [row] = await this.db.query<GroupExportRow>(FIND_JOB_BY_ID, [id]);
    return row ?? null;
  }

  async delete(groupId: string, id: string): Promise<GroupExportRow | null> {
    if (!isUUID(id, 'all')) return null;
    const [row] = await this.db.query<GroupExportRow>(DELETE_JOB, [groupId, id]);
    return row ?? null;
  }

  async start(id: string, attempt: string): Promise<GroupExportRow | null> {
    const [row] = await this.db.query<GroupExportRow>(START_JOB, [id, attempt]);
    return row ?? null;
  }

  async setProgress(id: string, attempt: string, progress: number): Promise<GroupExportRow | null> {
    const [row] = await this.db.query<GroupExportRow>(SET_PROGRESS, [id, attempt, progress]);
    return row ?? null;
  }

  async complete(
    id: string,
    attempt: string,
    artifactKey: string | null,
    sizeBytes: number,
  ): Promise<GroupExportRow | null> {
    const [row] = await this.db.query<GroupExportRow>(COMPLETE_JOB, [
      id,
      attempt,
      artifactKey,
      sizeBytes,
    ]);
    return row ?? null;
  }

  async fail(id: string, attempt: string, error: string): Promise<GroupExportRow | null> {
    const [row] = await this.db.query<GroupExportRow>(FAIL_JOB, [id, error, attempt]);
    return row ?? null;
  }

  async artifactKeysOfGroup(groupId: string): Promise<string[]> {
    const rows = await this.db.query<{ artifactKey: string }>(ARTIFACTS_OF_GROUP, [groupId]);
    return rows.map((row) => row.artifactKey);
  }

  stale(before: Date, limit: number): Promise<GroupExportRow[]> {
    return this.db.query<GroupExportRow>(STALE_JOBS, [before, limit]);
  }

  async deleteMany(ids: string[]): Promise<void> {
    if (ids.length > 0) await this.db.query(DELETE_JOBS, [ids]);
  }

  /**
   * Runs `work` in a read-only unit of work that sees one snapshot of the database throughout
   * (REPEATABLE READ), so the tables of a backup agree with each other.
   */
  snapshot<T>(work: () => Promise<T>): Promise<T> {
    return this.db.transaction(async () => {
      await this.db.query(SNAPSHOT);
      return work();
    });
  }

  /** Runs `work` in the current unit of work, or in a new one. */
  transaction<T>(work: () => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /**
   * Runs `work` on its own, outside the unit of work open in the context (progress reported
   * while a restore's transaction is open must be seen before it commits).
   */
  outside<T>(work: () => Promise<T>): Promise<T> {
    return this.db.outside(work);
  }
}
