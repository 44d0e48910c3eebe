import { BadRequestException, ForbiddenException, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { isUUID } from 'class-validator';
import { Database } from '../../platform/database/database.js';
import type { GroupRole } from './group-role.js';
import type { AuthRole } from './auth-role.js';
import type { Tenant } from './auth-user.js';
import { BY_API_KEY_HASH, BY_SESSION_TOKEN } from './identity.sql.js';

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
  expires_at: Date | null;
  roles: AuthRole[];
  group_id: string | null;
  group_role: GroupRole | null;
}

export interface StoredIdentity {
  userId: string;
  secretHash: Buffer;
  /** Null for an API key that never expires. */
  expiresAt: Date | null;
  roles: AuthRole[];
  tenant: Tenant | null;
}

/**
 * Loads, in one prepared statement per request, what a credential stands for: its user, its
 * roles and the tenant group. Session and API-key lookups share the tenant rule (see
 * `identity.sql.ts`).
 */
@Injectable()
export class IdentityRepository {
  constructor(private readonly db: Database) {}

  async findBySessionToken(
    tokenId: string,
    tenant: string | undefined,
  ): Promise<StoredIdentity | undefined> {
    const rows = await this.db.prepared<IdentityRow>(BY_SESSION_TOKEN, [tokenId, tenant ?? null]);
    return this.toIdentity(rows[0], tenant);
  }

  async findByApiKeyHash(
    keyHash: Buffer,
    tenant: string | undefined,
  ): Promise<(StoredIdentity & { keyId: string }) | undefined> {
    const rows = await this.db.prepared<IdentityRow & { key_id: string }>(BY_API_KEY_HASH, [
      keyHash,
      tenant ?? null,
    ]);
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
      expiresAt: row.expires_at,
      roles: row.roles,
      tenant:
        row.group_id && row.group_role ? { groupId: row.group_id, role: row.group_role } : null,
    };
  }
}
