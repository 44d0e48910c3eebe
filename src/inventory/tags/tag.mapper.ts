import { isoTimestamp, jsonObject } from '../../platform/database/json.sql.js';
import type { TagOutDto } from './dto/tag-out.dto.js';
import type { TagStoredDto, TagStoredEdgesDto } from './dto/tag-stored.dto.js';
import type { TagSummaryDto } from './dto/tag-summary.dto.js';
import type { TagRecord } from './tag.record.js';

/** The summary view (spec §2.5): camelCase, `parentId` null for a root tag. */
export const toTagSummary = (record: TagRecord): TagSummaryDto => ({
  id: record.id,
  name: record.name,
  description: record.description,
  color: record.color,
  icon: record.icon,
  parentId: record.parentId ?? null,
  createdAt: record.createdAt.toISOString(),
  updatedAt: record.updatedAt.toISOString(),
});

/** `toTagSummary` written as SQL: the summary view of the tag row `alias`, as JSON. */
export const tagSummaryJson = (alias: string): string =>
  jsonObject({
    id: `${alias}.id`,
    name: `${alias}.name`,
    description: `${alias}.description`,
    color: `${alias}.color`,
    icon: `${alias}.icon`,
    parentId: `${alias}.parent_id`,
    createdAt: isoTimestamp(`${alias}.created_at`),
    updatedAt: isoTimestamp(`${alias}.updated_at`),
  });

/** One tag with its parent (null for a root) and its direct children, in the order given. */
export const toTagOut = (
  record: TagRecord,
  parent: TagRecord | null,
  children: TagRecord[],
): TagOutDto => ({
  ...toTagSummary(record),
  parent: parent ? toTagSummary(parent) : null,
  children: children.map(toTagSummary),
});

/** The stored view (spec §2.5): snake_case, with the relations the operation loaded under `edges`. */
export const toTagStored = (
  record: TagRecord,
  options: { edges?: TagStoredEdgesDto } = {},
): TagStoredDto => ({
  color: record.color,
  created_at: record.createdAt.toISOString(),
  description: record.description,
  icon: record.icon,
  id: record.id,
  name: record.name,
  updated_at: record.updatedAt.toISOString(),
  edges: options.edges ?? {},
});
