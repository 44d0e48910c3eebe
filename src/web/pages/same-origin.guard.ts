import {
  ForbiddenException,
  Injectable,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Request } from 'express';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { isSameOriginPost, publicHostOf } from './same-origin.js';

export const CROSS_SITE_MESSAGE = 'This form was sent from another site, so it was refused.';

/** Refuses a page's form post that does not come from Trove's own origin (403). */
@Injectable()
export class SameOriginPostGuard implements CanActivate {
  constructor(private readonly config: ConfigService<TroveConfig, true>) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    if (request.method === 'GET' || request.method === 'HEAD') return true;
    const publicHost = publicHostOf(this.config.get('options', { infer: true }).hostname);
    if (isSameOriginPost(request, publicHost)) return true;
    throw new ForbiddenException(CROSS_SITE_MESSAGE);
  }
}
