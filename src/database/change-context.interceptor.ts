import {
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { Request } from 'express';
import { ClsInterceptor } from 'nestjs-cls';
import type { Observable } from 'rxjs';
import { attributeRequest } from './change-attribution.js';

/** Methods that read: their requests make no change to attribute. */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Gives each request that may change data (any method but GET, HEAD and OPTIONS, and every
 * WebSocket message) a context noting its caller and route, so that the units of work it opens are
 * attributed to them (`attributeRequest`). A read passes straight through: it has nothing to
 * attribute, and a unit of work it opens (a snapshot of several statements) makes a context of
 * its own.
 */
@Injectable()
export class ChangeContextInterceptor implements NestInterceptor {
  private readonly context = new ClsInterceptor({
    setup: attributeRequest,
    resolveProxyProviders: false,
  });

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (
      context.getType() === 'http' &&
      READ_METHODS.has(context.switchToHttp().getRequest<Request>().method)
    ) {
      return next.handle();
    }
    return this.context.intercept(context, next);
  }
}
