import { createHmac, randomBytes } from 'node:crypto';
import { Injectable, NotFoundException } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { TroveConfig } from '../../platform/config/configuration.js';
import type { ApiKeyRecord } from './api-key.record.js';
import { ApiKeyRepository } from './api-key.repository.js';
import type { AuthIdentity } from './auth-user.js';
import type { ApiKeyCreatedDto, ApiKeyDto, CreateApiKeyDto } from './dto/api-key.dto.js';
import { IdentityRepository } from './identity.repository.js';
import { ServerSecretsService } from './server-secrets.service.js';
import { credentialKey, VerifiedCredentials } from './verified-credentials.js';

export const API_KEY_PREFIX = 'trove_';
const API_KEY_PEPPER = 'api-key-pepper';
const DEFAULT_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
/** lastUsedAt is written at most this often per key, so a busy script does not write on every call. */
const LAST_USED_PRECISION_MS = 60 * 1000;

export const isApiKey = (token: string): boolean => token.startsWith(API_KEY_PREFIX);

const toApiKeyDto = (record: ApiKeyRecord): ApiKeyDto => ({
  id: record.id,
  userId: record.userId,
  name: record.name,
  createdAt: record.createdAt.toISOString(),
  expiresAt: record.expiresAt?.toISOString() ?? null,
  lastUsedAt: record.lastUsedAt?.toISOString() ?? null,
});

/** Long-lived keys for scripts: shown once, stored as an HMAC keyed with the server's pepper. */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly secrets: ServerSecretsService,
    private readonly identities: IdentityRepository,
    private readonly verified: VerifiedCredentials,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  private async hash(key: string): Promise<Buffer> {
    const pepper = await this.secrets.get(
      API_KEY_PEPPER,
      this.config.get('auth', { infer: true }).apiKeyPepper,
    );
    return createHmac('sha256', pepper).update(key).digest();
  }

  async list(caller: AuthIdentity): Promise<ApiKeyDto[]> {
    return (await this.keys.findByUser(caller.id)).map(toApiKeyDto);
  }

  async create(caller: AuthIdentity, dto: CreateApiKeyDto): Promise<ApiKeyCreatedDto> {
    const token = API_KEY_PREFIX + randomBytes(32).toString('base64url');
    const expiresAt =
      dto.expiresAt === undefined
        ? new Date(Date.now() + DEFAULT_LIFETIME_MS)
        : dto.expiresAt === null
          ? null
          : new Date(dto.expiresAt);
    const record = await this.keys.insert({
      userId: caller.id,
      name: dto.name,
      keyHash: await this.hash(token),
      expiresAt,
    });
    return { ...toApiKeyDto(record), token };
  }

  async remove(caller: AuthIdentity, id: string): Promise<void> {
    if (!(await this.keys.deleteOwn(caller.id, id)))
      throw new NotFoundException(`API key ${id} not found`);
    this.verified.forgetCredential(id);
  }

  /** Deletes every API key of the user, on every instance at once (see `VerifiedCredentials`). */
  async revokeAllForUser(userId: string): Promise<void> {
    await this.keys.deleteAllOfUser(userId);
    this.verified.forgetUser(userId);
  }

  /**
   * The identity an API key stands for, or undefined for an unknown or expired key; an answer
   * verified before is taken from `VerifiedCredentials` (see `SessionsService.identify`).
   */
  async identify(key: string, tenant: string | undefined): Promise<AuthIdentity | undefined> {
    const hash = await this.hash(key);
    const cacheKey = credentialKey(hash, tenant);
    let verified = this.verified.get(cacheKey);
    if (!verified) {
      const ticket = this.verified.ticket();
      const stored = await this.identities.findByApiKeyHash(hash, tenant);
      if (!stored) return undefined;
      verified = {
        userId: stored.userId,
        credentialId: stored.keyId,
        roles: ['user'],
        tenant: stored.tenant,
        expiresAt: stored.expiresAt,
      };
      this.verified.keep(ticket, cacheKey, verified);
    }
    if ((verified.touchedAt ?? 0) <= Date.now() - LAST_USED_PRECISION_MS) {
      await this.keys.touch(verified.credentialId, new Date(Date.now() - LAST_USED_PRECISION_MS));
      verified.touchedAt = Date.now();
    }
    return {
      id: verified.userId,
      credential: { kind: 'apiKey', keyId: verified.credentialId },
      tokenRoles: ['user'],
      tenant: verified.tenant && { ...verified.tenant },
    };
  }
}
