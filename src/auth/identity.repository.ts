import { BadRequestException, ForbiddenException, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import type { DataSource } from 'typeorm';
import { isUUID } from 'class-validator';
import { preparedQuery } from '../database/prepared-query.js';
import type { GroupRole } from '../groups/group-role.js';
import type { AuthRole } from './auth-role.js';
import type { Tenant } from './auth-user.js';

/** The group a request asks for: X-Tenant, then ?tenant=; undefined means the default group. */
export function requestedTenant(request: Request): string | undefined {
  const header = request.headers['x-tenant'];
  const query = request.query.tenant;
  const value = typeof header === 'string' && header !== '' ? header : query;
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !isUUID(value)) {
    throw new BadRequestException('invalid X-Tenant header format');
  }
  return value;
}

interface IdentityRow {
  user_id: string;
  secret_hash: Buffer;
  roles: AuthRole[];
  group_id: string | null;
  group_role: GroupRole | null;
}

export interface StoredIdentity {
  userId: string;
  secretHash: Buffer;
  roles: AuthRole[];
  tenant: Tenant | null;
}

/**
 * The caller's group for this request, joined in the same query that checks the credential:
 * the requested group when the user is a member of it, else the default group, else the oldest
 * membership.
 */
const TENANT_JOIN = `
  LEFT JOIN LATERAL (
    SELECT gm.group_id, gm.role FROM group_memberships gm
    WHERE gm.user_id = u.id AND ($2::uuid IS NULL OR gm.group_id = $2::uuid)
    ORDER BY (gm.group_id = u.default_group_id) DESC NULLS LAST, gm.created_at
    LIMIT 1
  ) m ON true`;

const BY_SESSION_TOKEN = `SELECT t.user_id, t.token_hash AS secret_hash,
    ARRAY(SELECT r.role FROM auth_roles r WHERE r.token_id = t.id) AS roles,
    m.group_id, m.role AS group_role
  FROM auth_tokens t
  JOIN users u ON u.id = t.user_id
  ${TENANT_JOIN}
  WHERE t.id = $1 AND t.expires_at > now()`;

const BY_API_KEY_HASH = `SELECT k.id AS key_id, k.user_id, k.key_hash AS secret_hash,
    ARRAY['user'] AS roles, m.group_id, m.role AS group_role
  FROM api_keys k
  JOIN users u ON u.id = k.user_id
  ${TENANT_JOIN}
  WHERE k.key_hash = $1 AND (k.expires_at IS NULL OR k.expires_at > now())`;

/**
 * Loads, in one query per request, what a credential stands for: its user, its roles and the
 * tenant group. Session and API-key lookups share the tenant rule above; both are prepared.
 */
@Injectable()
export class IdentityRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async findBySessionToken(
    tokenId: string,
    tenant: string | undefined,
  ): Promise<StoredIdentity | undefined> {
    const rows = await preparedQuery<IdentityRow>(this.dataSource, BY_SESSION_TOKEN, [
      tokenId,
      tenant ?? null,
    ]);
    return this.toIdentity(rows[0], tenant);
  }

  async findByApiKeyHash(
    keyHash: Buffer,
    tenant: string | undefined,
  ): Promise<(StoredIdentity & { keyId: string }) | undefined> {
    const rows = await preparedQuery<IdentityRow & { key_id: string }>(
      this.dataSource,
      BY_API_KEY_HASH,
      [keyHash, tenant ?? null],
    );
    const identity = this.toIdentity(rows[0], tenant);
    return identity && { ...identity, keyId: rows[0].key_id };
  }

  private toIdentity(
    row: IdentityRow | undefined,
    tenant: string | undefined,
  ): StoredIdentity | undefined {
    if (!row) return undefined;
    if (tenant !== undefined && row.group_id === null) {
      throw new ForbiddenException('user does not have access to the requested tenant');
    }
    return {
      userId: row.user_id,
      secretHash: row.secret_hash,
      roles: row.roles,
      tenant:
        row.group_id && row.group_role ? { groupId: row.group_id, role: row.group_role } : null,
    };
  }
}
