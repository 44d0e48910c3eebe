import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** What started a backup: the schedule (a queue job) or `npm run backup`. */
export type InstanceBackupTrigger = 'schedule' | 'command';

/** `running` while written and checked; `completed` once stored everywhere; else `failed`. */
export type InstanceBackupState = 'running' | 'completed' | 'failed';

/**
 * One instance backup, as the instance administrators list it: when and how it was made, its
 * size and counts, where it was stored, its rehearsed restore, and why it failed if it did. The
 * archive itself lives in TROVE_BACKUP_DIR and/or the backup bucket, not here.
 */
@Entity('instance_backups')
export class InstanceBackupRecord {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** The archive's file name (`trove-backup-<time>.tar.gz`, `.age` when encrypted). */
  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 16 })
  trigger: InstanceBackupTrigger;

  @Column({ type: 'varchar', length: 16 })
  state: InstanceBackupState;

  @Index()
  @Column({ type: 'timestamptz' })
  startedAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  finishedAt: Date | null;

  @Column({ type: 'bigint', nullable: true })
  sizeBytes: string | null;

  /** Rows of every table together. */
  @Column({ type: 'bigint', nullable: true })
  rowCount: string | null;

  @Column({ type: 'integer', nullable: true })
  fileCount: number | null;

  /** Rows per table, as the manifest says. */
  @Column({ type: 'jsonb', nullable: true })
  tables: Record<string, number> | null;

  @Column({ type: 'boolean', default: false })
  encrypted: boolean;

  /** Where it is stored: a path and/or `s3://bucket/key`. */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  locations: string[];

  /** When its restore was last rehearsed in a scratch database, and how that went. */
  @Column({ type: 'timestamptz', nullable: true })
  verifiedAt: Date | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  verification: 'passed' | 'failed' | null;

  /** Why it failed. */
  @Column({ type: 'text', nullable: true })
  error: string | null;

  /** When retention deleted it from where it was stored. */
  @Column({ type: 'timestamptz', nullable: true })
  deletedAt: Date | null;
}
