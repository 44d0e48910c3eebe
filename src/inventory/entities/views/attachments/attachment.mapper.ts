import { isoTimestamp, jsonObject } from '../../../../platform/database/json.sql.js';
import type { AttachmentRecord } from '../../../attachments/attachment.record.js';
import type { AttachmentStoredDto, AttachmentSummaryDto } from './attachment.dto.js';

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

/**
 * `toAttachmentStored` without edges written as SQL: the stored view of the attachment row
 * `alias`, as JSON, or null when there is no row.
 */
const attachmentStoredJson = (alias: string): string => `CASE WHEN ${alias}.id IS NOT NULL THEN
  ${jsonObject({
    id: `${alias}.id`,
    created_at: isoTimestamp(`${alias}.created_at`),
    updated_at: isoTimestamp(`${alias}.updated_at`),
    mime_type: `${alias}.mime_type`,
    path: `${alias}.path`,
    primary: `${alias}."primary"`,
    title: `${alias}.title`,
    type: `${alias}.type`,
    edges: `'{}'::json`,
  })} END`;

/**
 * `toAttachmentSummary` written as SQL: the summary view of the attachment row `alias` with its
 * thumbnail, the attachment row `thumbnail` (left-joined on `alias.thumbnail_id`), as JSON.
 */
export const attachmentSummaryJson = (alias: string, thumbnail: string): string =>
  jsonObject({
    id: `${alias}.id`,
    createdAt: isoTimestamp(`${alias}.created_at`),
    updatedAt: isoTimestamp(`${alias}.updated_at`),
    mimeType: `${alias}.mime_type`,
    path: `${alias}.path`,
    primary: `${alias}."primary"`,
    title: `${alias}.title`,
    type: `${alias}.type`,
    thumbnail: attachmentStoredJson(thumbnail),
  });
