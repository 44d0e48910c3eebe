import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database.js';
import type { SqlCondition } from './scim-filter.js';
import {
  SCIM_USER_COLUMNS,
  SCIM_USERS_FROM,
  UPSERT_IDENTITY,
  USER_NAME_TAKEN,
} from './scim.sql.js';

/** The parts of a name as a provider sends them; null where it sent none. */
export interface ScimNameParts {
  givenName: string | null;
  middleName: string | null;
  familyName: string | null;
}

/** What SCIM keeps of a user beyond Trove's own fields. */
export interface ScimIdentityValues {
  userName: string;
  userNameKey: string;
  externalId: string | null;
  nameParts: ScimNameParts;
}

/** A user as SCIM sees them. */
export interface ScimUserRow {
  id: string;
  name: string;
  email: string;
  created_at: Date;
  updated_at: Date;
  disabled: boolean;
  user_name: string;
  external_id: string | null;
  given_name: string | null;
  middle_name: string | null;
  family_name: string | null;
}

/**
 * The only code that writes the `scim_identities` table; it reads the users SCIM sees (the shared
 * group's members) with it, in one statement, so that filters and paging run in the database.
 */
@Injectable()
export class ScimIdentityRepository {
  constructor(private readonly db: Database) {}

  /** The member of the shared group with this id, if any. */
  async findMember(groupId: string, userId: string): Promise<ScimUserRow | undefined> {
    const rows = await this.db.query<ScimUserRow>(
      `SELECT ${SCIM_USER_COLUMNS} ${SCIM_USERS_FROM} WHERE u.id = $2`,
      [groupId, userId],
    );
    return rows[0];
  }

  /** Which of these users are members of the shared group `groupId`. */
  async membersAmong(groupId: string, userIds: string[]): Promise<string[]> {
    if (userIds.length === 0) return [];
    const rows = await this.db.query<{ user_id: string }>(
      `SELECT user_id FROM group_memberships WHERE group_id = $1 AND user_id = ANY($2::uuid[])`,
      [groupId, userIds],
    );
    return rows.map((row) => row.user_id);
  }

  /** A page of the members matching `condition` (bound from `$2` on), oldest first, and how many match. */
  async findPage(
    groupId: string,
    condition: SqlCondition,
    offset: number,
    limit: number,
  ): Promise<{ rows: ScimUserRow[]; total: number }> {
    const params = [groupId, ...condition.values];
    const [{ total }] = await this.db.query<{ total: number }>(
      `SELECT count(*)::int AS total ${SCIM_USERS_FROM} WHERE ${condition.sql}`,
      params,
    );
    const rows =
      limit === 0 || offset >= total
        ? []
        : await this.db.query<ScimUserRow>(
            `SELECT ${SCIM_USER_COLUMNS} ${SCIM_USERS_FROM} WHERE ${condition.sql}
             ORDER BY u.created_at, u.id OFFSET $${params.length + 1} LIMIT $${params.length + 2}`,
            [...params, offset, limit],
          );
    return { rows, total };
  }

  /** Whether another user than `exceptUserId` is known to SCIM by this user name key. */
  async isUserNameTaken(
    groupId: string | undefined,
    userNameKey: string,
    exceptUserId: string | null,
  ): Promise<boolean> {
    const [{ taken }] = await this.db.query<{ taken: boolean }>(USER_NAME_TAKEN, [
      groupId ?? null,
      userNameKey,
      exceptUserId,
    ]);
    return taken;
  }

  async save(userId: string, identity: ScimIdentityValues): Promise<void> {
    await this.db.query(UPSERT_IDENTITY, [
      userId,
      identity.userName,
      identity.userNameKey,
      identity.externalId,
      identity.nameParts.givenName,
      identity.nameParts.middleName,
      identity.nameParts.familyName,
    ]);
  }
}
