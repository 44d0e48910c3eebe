import type { NotifierOutDto } from './dto/notifier-out.dto.js';
import type { NotifierRecord } from './notifier.record.js';

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

/** NotifierOut, with the URL given in clear (decrypted by the caller). */
export const toNotifierOut = (record: NotifierRecord, url: string): NotifierOutDto => ({
  id: record.id,
  userId: record.userId,
  groupId: record.groupId,
  createdAt: record.createdAt.toISOString(),
  updatedAt: record.updatedAt.toISOString(),
  name: record.name,
  isActive: record.isActive,
  url,
  lastSuccessAt: iso(record.lastSuccessAt),
  lastError: record.lastError,
  lastErrorAt: iso(record.lastErrorAt),
});
