import { toEntityStored } from '../entities/views/entity.mapper.js';
import type { EntityRecord } from '../entities/core/entity.record.js';
import type { GroupRecord } from '../../identity/groups/group.record.js';
import type {
  EntityFromTemplateEdgesDto,
  EntityFromTemplateStoredDto,
  GroupStoredDto,
} from './dto/entity-from-template-stored.dto.js';

/** A group, stored view (spec §2.7) without relations. */
export const toGroupStored = (record: GroupRecord): GroupStoredDto => ({
  created_at: record.createdAt.toISOString(),
  currency: record.currency.toUpperCase(),
  id: record.id,
  name: record.name,
  updated_at: record.updatedAt.toISOString(),
  edges: {},
});

/** The stored view of an entity created from a template (spec §4.9), with its edges. */
export const toEntityFromTemplateStored = (
  record: EntityRecord,
  edges: EntityFromTemplateEdgesDto,
): EntityFromTemplateStoredDto => ({ ...toEntityStored(record), edges });
