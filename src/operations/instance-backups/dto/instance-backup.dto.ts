import { ApiProperty } from '@nestjs/swagger';
import type { InstanceBackupRow } from '../instance-backup.repository.js';

/** One instance backup, as the instance administrators see it. */
export class InstanceBackupDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({
    description: 'The archive’s file name (`trove-backup-<time>.tar.gz`, `.age` when encrypted)',
  })
  name: string;

  @ApiProperty({ enum: ['schedule', 'command'], description: 'The schedule or npm run backup' })
  trigger: string;

  @ApiProperty({
    enum: ['running', 'completed', 'failed'],
    description: 'completed: written, its restore rehearsed, and stored everywhere',
  })
  state: string;

  @ApiProperty({ format: 'date-time' })
  startedAt: string;

  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  finishedAt: string | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Size of the archive in bytes' })
  sizeBytes: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Rows of all tables together' })
  rowCount: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Stored files (photos, ...)' })
  fileCount: number | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    nullable: true,
    description: 'Rows per table',
  })
  tables: Record<string, number> | null;

  @ApiProperty()
  encrypted: boolean;

  @ApiProperty({
    type: [String],
    description: 'Where it is stored: a path on the server and/or s3://bucket/key',
  })
  locations: string[];

  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  verifiedAt: string | null;

  @ApiProperty({
    enum: ['passed', 'failed'],
    nullable: true,
    type: String,
    description: 'How its rehearsed restore into a scratch database went',
  })
  verification: string | null;

  @ApiProperty({ nullable: true, type: String, description: 'Why it failed' })
  error: string | null;

  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'When retention deleted it',
  })
  deletedAt: string | null;

  static of(row: InstanceBackupRow): InstanceBackupDto {
    const number = (value: string | null): number | null => (value === null ? null : Number(value));
    return {
      id: row.id,
      name: row.name,
      trigger: row.trigger,
      state: row.state,
      startedAt: row.startedAt.toISOString(),
      finishedAt: row.finishedAt?.toISOString() ?? null,
      sizeBytes: number(row.sizeBytes),
      rowCount: number(row.rowCount),
      fileCount: row.fileCount,
      tables: row.tables,
      encrypted: row.encrypted,
      locations: row.locations,
      verifiedAt: row.verifiedAt?.toISOString() ?? null,
      verification: row.verification,
      error: row.error,
      deletedAt: row.deletedAt?.toISOString() ?? null,
    };
  }
}

export class InstanceBackupPageDto {
  @ApiProperty({ type: 'integer', description: 'The page, from 1' })
  page: number;

  @ApiProperty({ type: 'integer' })
  pageSize: number;

  @ApiProperty({ type: 'integer', description: 'Backups before paging' })
  total: number;

  @ApiProperty({ type: [InstanceBackupDto] })
  items: InstanceBackupDto[];
}
