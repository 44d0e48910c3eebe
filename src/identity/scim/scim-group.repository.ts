import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database.js';
import type { SqlCondition } from './scim-filter.js';

/** A pushed group as SCIM sees it. */
export interface ScimGroupRow {
  id: string;
  display_name: string;
  external_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A member of a pushed group, with the name SCIM shows for them (`display`). */
export interface ScimGroupMemberRow {
  group_id: string;
  user_id: string;
  name: string;
}

/** What a create or replace stores of a group. */
export interface ScimGroupValues {
  displayName: string;
  displayNameKey: string;
  externalId: string | null;
}

const GROUP_COLUMNS = 'g.id, g.display_name, g.external_id, g.created_at, g.updated_at';

/**
 * The only code that reads and writes `scim_groups` and `scim_group_members`: the groups an
 * identity provider pushes and their members, filtered and paged in the database.
 */
@Injectable()
export class ScimGroupRepository {
  constructor(private readonly db: Database) {}

  async findById(id: string): Promise<ScimGroupRow | undefined> {
    const rows = await this.db.query<ScimGroupRow>(
      `SELECT ${GROUP_COLUMNS} FROM scim_groups g WHERE g.id = $1`,
      [id],
    );
    return rows[0];
  }

  /** A page of the groups matching `condition` (bound from `$1` on), oldest first, and how many match. */
  async findPage(
    condition: SqlCondition,
    offset: number,
    limit: number,
  ): Promise<{ rows: ScimGroupRow[]; total: number }> {
    const params = condition.values;
    const [{ total }] = await this.db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM scim_groups g WHERE ${condition.sql}`,
      params,
    );
    const rows =
      limit === 0 || offset >= total
        ? []
        : await this.db.query<ScimGroupRow>(
            `SELECT ${GROUP_COLUMNS} FROM scim_groups g WHERE ${condition.sql}
             ORDER BY g.created_at, g.id OFFSET $${params.length + 1} LIMIT $${params.length + 2}`,
            [...params, offset, limit],
          );
    return { rows, total };
  }

  /** The members of these groups, each with the user's name, in the order they were added. */
  async membersOf(groupIds: string[]): Promise<ScimGroupMemberRow[]> {
    if (groupIds.length === 0) return [];
    return this.db.query<ScimGroupMemberRow>(
      `SELECT m.group_id, m.user_id, u.name FROM scim_group_members m
         JOIN users u ON u.id = m.user_id
        WHERE m.group_id = ANY($1::uuid[]) ORDER BY m.added_at, m.user_id`,
      [groupIds],
    );
  }

  /** The display names of the pushed groups the user is in. */
  async groupNamesOf(userId: string): Promise<string[]> {
    const rows = await this.db.query<{ display_name: string }>(
      `SELECT g.display_name FROM scim_group_members m JOIN scim_groups g ON g.id = m.group_id
        WHERE m.user_id = $1 ORDER BY g.display_name`,
      [userId],
    );
    return rows.map((row) => row.display_name);
  }

  /** Whether a group other than `exceptId` (null: any) has this display name key. */
  async isDisplayNameTaken(key: string, exceptId: string | null): Promise<boolean> {
    const [{ taken }] = await this.db.query<{ taken: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM scim_groups
         WHERE display_name_key = $1 AND ($2::uuid IS NULL OR id <> $2)) AS taken`,
      [key, exceptId],
    );
    return taken;
  }

  async insert(values: ScimGroupValues): Promise<string> {
    const [{ id }] = await this.db.query<{ id: string }>(
      `INSERT INTO scim_groups (display_name, display_name_key, external_id)
       VALUES ($1, $2, $3) RETURNING id`,
      [values.displayName, values.displayNameKey, values.externalId],
    );
    return id;
  }

  /** Stores the group's attributes; its `meta.lastModified` moves on when one changed. */
  async update(id: string, values: ScimGroupValues): Promise<void> {
    await this.db.query(
      `UPDATE scim_groups SET display_name = $2, display_name_key = $3, external_id = $4,
              updated_at = now()
        WHERE id = $1 AND (display_name, external_id) IS DISTINCT FROM ($2, $4)`,
      [id, values.displayName, values.displayNameKey, values.externalId],
    );
  }

  /** Adds and removes members (each list without repeats); the group's `meta.lastModified` moves on. */
  async changeMembers(groupId: string, added: string[], removed: string[]): Promise<void> {
    if (added.length > 0) {
      await this.db.query(
        `INSERT INTO scim_group_members (group_id, user_id)
         SELECT $1, unnest($2::uuid[]) ON CONFLICT DO NOTHING`,
        [groupId, added],
      );
    }
    if (removed.length > 0) {
      await this.db.query(
        `DELETE FROM scim_group_members WHERE group_id = $1 AND user_id = ANY($2::uuid[])`,
        [groupId, removed],
      );
    }
    if (added.length > 0 || removed.length > 0) {
      await this.db.query(`UPDATE scim_groups SET updated_at = now() WHERE id = $1`, [groupId]);
    }
  }

  /** Deletes the group; its memberships go with it. */
  async delete(id: string): Promise<void> {
    await this.db.query(`DELETE FROM scim_groups WHERE id = $1`, [id]);
  }
}
