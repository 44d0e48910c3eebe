import type { AttachmentRecord } from './attachment.record.js';
import type { AttachmentStoredDto, AttachmentSummaryDto } from './dto/attachment.dto.js';

export const toAttachmentStored = (
  record: AttachmentRecord,
  edges: Record<string, unknown> = {},
): AttachmentStoredDto => ({
  id: record.id,
  created_at: record.createdAt.toISOString(),
  updated_at: record.updatedAt.toISOString(),
  mime_type: record.mimeType,
  path: record.path,
  primary: record.primary,
  title: record.title,
  type: record.type,
  edges,
});

/** Expects `thumbnail` loaded when the attachment has one. */
export const toAttachmentSummary = (record: AttachmentRecord): AttachmentSummaryDto => ({
  id: record.id,
  createdAt: record.createdAt.toISOString(),
  updatedAt: record.updatedAt.toISOString(),
  mimeType: record.mimeType,
  path: record.path,
  primary: record.primary,
  title: record.title,
  type: record.type,
  thumbnail: record.thumbnail ? toAttachmentStored(record.thumbnail) : null,
});
