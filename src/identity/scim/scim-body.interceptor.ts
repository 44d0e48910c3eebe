import {
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import express, { type Request, type Response } from 'express';
import type { Observable } from 'rxjs';
import { bodyDepthLimit, MAX_BODY_DEPTH } from '../../platform/http/body-depth-limit.js';
import type { TroveConfig } from '../../platform/config/configuration.js';

/** The media types a SCIM client sends its JSON as. */
export const SCIM_BODY_TYPES = ['application/scim+json', 'application/json'];

/** Whether a request is for SCIM's routes, whose bodies `ScimBodyInterceptor` reads. */
export const isScimRequest = (request: { url?: string }): boolean =>
  request.url?.startsWith('/scim/') ?? false;

type Middleware = (request: Request, response: Response, next: (error?: unknown) => void) => void;

const run = (middleware: Middleware, request: Request, response: Response): Promise<void> =>
  new Promise((resolve, reject) =>
    middleware(request, response, (error?: unknown) =>
      // body-parser's errors are Errors; anything else is wrapped so that it is one.
      error
        ? reject(error instanceof Error ? error : new Error('the request body could not be read'))
        : resolve(),
    ),
  );

/**
 * Reads a SCIM request's JSON body (`application/scim+json` or `application/json`) within the
 * route, after its token was checked, so that a body that is not JSON, too large or nested too
 * deeply is answered as SCIM answers errors. The app's own JSON parser leaves these requests be.
 */
@Injectable()
export class ScimBodyInterceptor implements NestInterceptor {
  private readonly parse: Middleware;
  private readonly depth = bodyDepthLimit(MAX_BODY_DEPTH);

  constructor(config: ConfigService<TroveConfig, true>) {
    this.parse = express.json({
      type: SCIM_BODY_TYPES,
      limit: config.get('web', { infer: true }).jsonBodyLimitBytes,
    }) as Middleware;
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    await run(this.parse, request, response);
    await run(this.depth, request, response);
    return next.handle();
  }
}
