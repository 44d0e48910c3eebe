import { timingSafeEqual } from 'node:crypto';
import {
  Injectable,
  NotFoundException,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Request } from 'express';
import { sha256 } from '../auth/sha256.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { scimmy } from './scimmy.js';

export const SCIM_TOKEN_REQUIRED = 'the SCIM bearer token is required';
export const SCIM_TOKEN_INVALID = 'the SCIM bearer token is not valid';

/**
 * SCIM's own authentication: `Authorization: Bearer <TROVE_SCIM_TOKEN>`, compared in constant
 * time (as digests, so neither length nor content shows), never logged. While no token is set,
 * SCIM's routes answer as unknown routes do (404).
 */
@Injectable()
export class ScimTokenGuard implements CanActivate {
  constructor(private readonly config: ConfigService<TroveConfig, true>) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    const expected = this.config.get('scim', { infer: true }).token;
    if (expected === '') {
      throw new NotFoundException(`Cannot ${request.method} ${request.originalUrl}`);
    }
    const header = request.headers.authorization?.trim() ?? '';
    const presented = /^bearer\s+(\S+)$/i.exec(header)?.[1];
    // SCIMMY takes null for an error without a SCIM error keyword; its types say string.
    const noKeyword = null as unknown as string;
    const { Types } = scimmy();
    if (presented === undefined) throw new Types.Error(401, noKeyword, SCIM_TOKEN_REQUIRED);
    if (!timingSafeEqual(sha256(presented), sha256(expected))) {
      throw new Types.Error(401, noKeyword, SCIM_TOKEN_INVALID);
    }
    return true;
  }
}
