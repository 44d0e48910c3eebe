import type { GroupExportDto } from './dto/group-export.dto.js';
import type { GroupExportRow } from './group-export.repository.js';

/** Where a completed export is downloaded. */
export const downloadPath = (id: string): string => `/api/v1/group/exports/${id}/download`;

/** A job as the API shows it; absent optional fields are left out. */
export function toGroupExportDto(row: GroupExportRow): GroupExportDto {
  const dto: GroupExportDto = {
    id: row.id,
    groupId: row.groupId,
    kind: row.kind,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    status: row.status,
    progress: row.progress,
    sizeBytes: Number(row.sizeBytes),
  };
  if (row.kind === 'export' && row.status === 'completed') dto.artifactPath = downloadPath(row.id);
  if (row.error !== null) dto.error = row.error;
  return dto;
}
