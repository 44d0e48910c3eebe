import {
  Catch,
  HttpException,
  Logger,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Request, Response } from 'express';
import { HttpErrorFilter } from '../../platform/http/http-error.filter.js';
import { ValidationFailedException } from '../../platform/errors/validation-failed.exception.js';
import { scimmy, scimmyIfLoaded } from './scimmy.js';
import type { IdentifiedRequest } from '../../platform/logging/request-logging.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { databaseOutage } from '../../platform/database/database-availability.js';
import { mapDatabaseError } from '../../platform/database/database-errors.js';

export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';

/** A SCIM error message (RFC 7644 3.12). */
export interface ScimErrorBody {
  schemas: string[];
  status: string;
  scimType?: string;
  detail: string;
}

interface MappedScimError {
  status: number;
  scimType?: string;
  detail: string;
  retryAfterSeconds?: number;
}

/** body-parser's errors (a body that is not JSON, or too large) carry a `type` and a status. */
const parserStatus = (error: unknown): number | undefined => {
  const cause = error instanceof HttpException ? error.cause : error;
  const status = (cause as { status?: unknown; type?: unknown } | undefined)?.status;
  return cause instanceof Error && typeof (cause as { type?: unknown }).type === 'string'
    ? (status as number)
    : undefined;
};

/**
 * Writes every error of the SCIM routes as a SCIM error message (`application/scim+json`):
 * SCIMMY's errors with their status and `scimType`, Trove's HTTP errors and database errors with
 * theirs (503 with Retry-After while the database is away), anything else a logged 500. While
 * SCIM is off its routes are unknown routes, answered as Trove answers those.
 */
@Catch()
export class ScimErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Scim');
  private readonly plain = new HttpErrorFilter();

  constructor(private readonly config: ConfigService<TroveConfig, true>) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (this.config.get('scim', { infer: true }).token === '') {
      this.plain.catch(exception, host);
      return;
    }
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const { status, scimType, detail, retryAfterSeconds } = this.map(exception, request);
    if (response.headersSent) {
      response.end();
      return;
    }
    const body: ScimErrorBody = {
      schemas: [scimmy().Messages.Error.id],
      status: String(status),
      ...(scimType === undefined ? {} : { scimType }),
      detail,
    };
    if (retryAfterSeconds !== undefined) {
      response.setHeader('Retry-After', String(retryAfterSeconds));
    }
    if (status === 401) response.setHeader('WWW-Authenticate', 'Bearer realm="trove-scim"');
    response.status(status).type(SCIM_CONTENT_TYPE).send(JSON.stringify(body));
  }

  private map(exception: unknown, request: Request): MappedScimError {
    const loaded = scimmyIfLoaded();
    if (loaded !== undefined && exception instanceof loaded.Types.Error) {
      return {
        status: exception.status,
        scimType: exception.scimType ?? undefined,
        detail: exception.message,
      };
    }
    const parser = parserStatus(exception);
    if (parser !== undefined && parser >= 400 && parser < 500) {
      return parser === 413
        ? { status: 413, detail: 'the request body is too large' }
        : { status: 400, scimType: 'invalidSyntax', detail: 'the request body is not valid JSON' };
    }
    if (exception instanceof ValidationFailedException) {
      return { status: 400, scimType: 'invalidValue', detail: exception.message };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      return { status: status === 422 ? 400 : status, detail: exception.message };
    }
    const database = mapDatabaseError(exception);
    if (database) {
      if (database.retryAfterSeconds !== undefined) databaseOutage.failed(exception);
      return {
        status: database.status,
        ...(database.status === 409 ? { scimType: 'uniqueness' } : {}),
        detail: database.error,
        retryAfterSeconds: database.retryAfterSeconds,
      };
    }
    const requestId = (request as Request & Partial<IdentifiedRequest>).id ?? 'unknown';
    this.logger.error(
      `unhandled error in ${request.method} ${request.path} (request ${requestId})`,
      exception instanceof Error ? exception.stack : String(exception),
    );
    return { status: 500, detail: `internal error (request ${requestId})` };
  }
}
