import type { IncomingMessage } from 'node:http';
import { ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import cookieParser from 'cookie-parser';
import type { Request } from 'express';
import { ApiKeysService, isApiKey } from './api-keys.service.js';
import type { AuthIdentity, AuthUser } from './auth-user.js';
import { INVALID_TOKEN_MESSAGE, NO_TOKEN_MESSAGE } from './guards/authentication.guard.js';
import { NO_GROUP_MESSAGE } from './guards/group-access.guard.js';
import { requestedTenant } from './identity.repository.js';
import { SessionsService } from './sessions.service.js';
import { presentedUpgradeToken, type PresentedToken } from './token-extraction.js';

/** A caller who opened a WebSocket: who they are in which group, and the credential they used. */
export interface UpgradeCaller {
  user: AuthUser;
  credential: PresentedToken;
}

const parseCookies = cookieParser();

/**
 * Authentication of WebSocket upgrades, which reach no guard: the same credentials as HTTP
 * requests (session token by header, cookie or `?access_token=`; API keys by header only), plus
 * the `hb-auth` subprotocol, and the tenant chosen and checked as on HTTP (`X-Tenant` or
 * `?tenant=`, 403 for a group the user is not a member of). The attachment token is accepted as
 * well: it is what Homebox's web UI sends in the subprotocol. Throws the HTTP exception an HTTP
 * request would get.
 */
@Injectable()
export class UpgradeAuthenticationService {
  constructor(
    private readonly sessions: SessionsService,
    private readonly apiKeys: ApiKeysService,
  ) {}

  async authenticate(message: IncomingMessage): Promise<UpgradeCaller> {
    const request = asRequest(message);
    const credential = presentedUpgradeToken(request);
    if (!credential) throw new UnauthorizedException(NO_TOKEN_MESSAGE);
    const user = await this.identify(credential, requestedTenant(request));
    return { user, credential };
  }

  /**
   * The caller behind `credential` in group `groupId` now: 401 once the credential is revoked or
   * expired, 403 once the user is no longer a member of the group.
   */
  async recheck(credential: PresentedToken, groupId: string): Promise<AuthUser> {
    return this.identify(credential, groupId);
  }

  private async identify(
    credential: PresentedToken,
    tenant: string | undefined,
  ): Promise<AuthUser> {
    let identity: AuthIdentity | undefined;
    if (isApiKey(credential.token)) {
      identity =
        credential.source === 'header'
          ? await this.apiKeys.identify(credential.token, tenant)
          : undefined;
    } else {
      identity = await this.sessions.authenticate(credential.token, tenant);
    }
    if (!identity) throw new UnauthorizedException(INVALID_TOKEN_MESSAGE);
    if (!identity.tenant) throw new ForbiddenException(NO_GROUP_MESSAGE);
    return { ...identity, groupId: identity.tenant.groupId, role: identity.tenant.role };
  }
}

/** The parts of an Express request that token and tenant extraction read. */
function asRequest(message: IncomingMessage): Request {
  const url = new URL(message.url ?? '/', 'http://upgrade.invalid');
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    query[key] = values.length === 1 ? values[0] : values;
  }
  const request = { headers: message.headers, query } as unknown as Request;
  parseCookies(request, {} as never, () => undefined);
  return request;
}
