import {
  Catch,
  HttpException,
  HttpStatus,
  Logger,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { databaseOutage } from '../database/database-availability.js';
import { mapDatabaseError } from '../database/database-errors.js';
import type { IdentifiedRequest } from '../logging/request-logging.js';
import type {
  ErrorResponseDto,
  FileProblemsResponseDto,
  ValidationErrorResponseDto,
} from '../errors/error-response.dto.js';
import { FileProblemsException } from '../errors/file-problems.exception.js';
import { ValidationFailedException } from '../errors/validation-failed.exception.js';

type ErrorBody = ErrorResponseDto | ValidationErrorResponseDto | FileProblemsResponseDto;

/** What an error is answered with: its status, its body and, for an outage, when to retry. */
export interface MappedError {
  status: number;
  body: ErrorBody;
  retryAfterSeconds?: number;
}

/** body-parser's errors carry a `type` and a client status. */
interface BodyParserError {
  type: string;
  status: number;
  message: string;
  limit?: number;
}

const isBodyParserError = (error: unknown): error is BodyParserError =>
  error instanceof Error &&
  typeof (error as Partial<BodyParserError>).type === 'string' &&
  typeof (error as Partial<BodyParserError>).status === 'number';

/**
 * Writes every error as `{"error": "..."}` (plus `fields` on 422, and `problems` for a file). Client mistakes keep their
 * 4xx; PostgreSQL errors, whichever path issued them, go through `mapDatabaseError`; anything
 * else is a 500 that is logged with its stack and answered with only a request id.
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const { status, body, retryAfterSeconds } = this.describe(exception, request);
    if (response.headersSent) {
      response.end();
      return;
    }
    if (retryAfterSeconds !== undefined)
      response.setHeader('Retry-After', String(retryAfterSeconds));
    response.status(status).json(body);
  }

  /**
   * The answer an error gets, whoever writes it: this filter as JSON, the pages' filter as HTML.
   * Logs what is a defect (a 500) and counts what is an outage.
   */
  describe(exception: unknown, request: Request): MappedError {
    if (exception instanceof FileProblemsException) {
      return {
        status: HttpStatus.UNPROCESSABLE_ENTITY,
        body: {
          error: exception.message,
          fields: exception.fields,
          problems: exception.problems,
          problemCount: exception.problemCount,
        },
      };
    }
    if (exception instanceof ValidationFailedException) {
      return {
        status: HttpStatus.UNPROCESSABLE_ENTITY,
        body: { error: exception.message, fields: exception.fields },
      };
    }
    // The Express adapter wraps body-parser's errors in an HttpException with the original as cause.
    const parserError = exception instanceof HttpException ? exception.cause : exception;
    if (isBodyParserError(parserError) && parserError.status >= 400 && parserError.status < 500) {
      return { status: parserError.status, body: { error: bodyParserMessage(parserError) } };
    }
    if (exception instanceof HttpException) {
      return { status: exception.getStatus(), body: { error: messageOf(exception) } };
    }
    const database = mapDatabaseError(exception);
    if (database) {
      // The database being away is an outage, not a defect: logged once per outage.
      if (database.retryAfterSeconds !== undefined) databaseOutage.failed(exception);
      return {
        status: database.status,
        body: { error: database.error },
        retryAfterSeconds: database.retryAfterSeconds,
      };
    }
    const requestId = (request as Request & Partial<IdentifiedRequest>).id ?? 'unknown';
    this.logger.error(
      `unhandled error in ${request.method} ${request.path} (request ${requestId})`,
      exception instanceof Error ? exception.stack : String(exception),
    );
    return {
      status: HttpStatus.INTERNAL_SERVER_ERROR,
      body: { error: 'internal error', requestId },
    };
  }
}

function messageOf(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  if (typeof message === 'string') return message;
  return exception.message;
}

function bodyParserMessage(error: BodyParserError): string {
  switch (error.type) {
    case 'entity.parse.failed':
      return `malformed JSON body: ${error.message}`;
    case 'entity.too.large':
      return `request body exceeds the limit of ${error.limit} bytes`;
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return error.message;
    default:
      return error.message || 'bad request body';
  }
}
