import type { GroupDto } from './dto/group.dto.js';
import type { GroupRecord } from './group.record.js';

export const toGroupDto = (record: GroupRecord): GroupDto => ({
  id: record.id,
  name: record.name,
  createdAt: record.createdAt.toISOString(),
  updatedAt: record.updatedAt.toISOString(),
  currency: record.currency.toUpperCase(),
});
