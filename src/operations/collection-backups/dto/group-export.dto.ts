import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  GROUP_EXPORT_KINDS,
  GROUP_EXPORT_STATUSES,
  type GroupExportKind,
  type GroupExportStatus,
} from '../group-export-status.js';

/** A collection backup job, export or import (Homebox §18 `ExportOut`). */
export class GroupExportDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  groupId: string;

  @ApiProperty({ enum: GROUP_EXPORT_KINDS })
  kind: GroupExportKind;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;

  @ApiProperty({ enum: GROUP_EXPORT_STATUSES })
  status: GroupExportStatus;

  @ApiProperty({ minimum: 0, maximum: 100, description: 'Percent done' })
  progress: number;

  @ApiPropertyOptional({
    example: '/api/v1/group/exports/5f0c…/download',
    description: 'Where a completed export is downloaded; absent until then, and for imports',
  })
  artifactPath?: string;

  @ApiProperty({ description: 'Size of the export zip in bytes (of the uploaded zip for imports)' })
  sizeBytes: number;

  @ApiPropertyOptional({ description: 'Why the job failed; absent unless it did' })
  error?: string;
}

/** The group's backup jobs, newest first. */
export class GroupExportListDto {
  @ApiProperty({ type: [GroupExportDto] })
  items: GroupExportDto[];
}
