import { Check, Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { TimestampedRecord } from '../../platform/database/timestamped.record.js';
import { sqlList } from '../../platform/database/sql-list.js';
import type { GroupRecord } from '../../identity/groups/group.record.js';
import type { UserRecord } from '../../identity/users/user.record.js';
import {
  GROUP_EXPORT_KINDS,
  GROUP_EXPORT_STATUSES,
  type GroupExportKind,
  type GroupExportStatus,
} from './group-export-status.js';

/**
 * A collection backup job of a group: an export (its artifact is the zip to download) or an
 * import (its artifact is the uploaded zip until the job has read it).
 */
@Entity('group_exports')
@Index(['groupId', 'createdAt'])
@Check(`"kind" IN (${sqlList(GROUP_EXPORT_KINDS)})`)
@Check(`"status" IN (${sqlList(GROUP_EXPORT_STATUSES)})`)
@Check('group_exports_progress_check', `"progress" BETWEEN 0 AND 100`)
export class GroupExportRecord extends TimestampedRecord {
  @Column('uuid')
  groupId: string;

  @ManyToOne('GroupRecord', { onDelete: 'CASCADE' })
  @JoinColumn()
  group?: Relation<GroupRecord>;

  /** Who asked for it; null once that user is deleted. */
  @Index()
  @Column({ type: 'uuid', nullable: true })
  userId: string | null;

  @ManyToOne('UserRecord', { onDelete: 'SET NULL' })
  @JoinColumn()
  user?: Relation<UserRecord>;

  @Column({ type: 'varchar', length: 16 })
  kind: GroupExportKind;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: GroupExportStatus;

  /** 0 to 100. */
  @Column({ type: 'smallint', default: 0 })
  progress: number;

  /** Storage key of the zip, once there is one. */
  @Column({ type: 'text', nullable: true })
  artifactKey: string | null;

  /** Size of the zip in bytes (bigint, as a string). */
  @Column({ type: 'bigint', default: 0 })
  sizeBytes: string;

  /** Why the job failed. */
  @Column({ type: 'text', nullable: true })
  error: string | null;

  /**
   * The attempt working on the job: a new attempt (after a crash, on any instance) takes over,
   * and the writes of an older one still running are refused.
   */
  @Column({ type: 'uuid', nullable: true })
  attempt: string | null;
}
