import type { UserDto } from './dto/user.dto.js';
import type { UserRecord } from './user.record.js';

/** The one place a user record becomes a response; hashes never leave. */
export const toUserDto = (record: UserRecord, groupIds: string[]): UserDto => ({
  id: record.id,
  name: record.name,
  email: record.email,
  isSuperuser: record.isSuperuser,
  defaultGroupId: record.defaultGroupId,
  groupIds,
  oidcIssuer: record.oidcIssuer,
  oidcSubject: record.oidcSubject,
});
