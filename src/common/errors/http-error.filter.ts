import {
  Catch,
  HttpException,
  HttpStatus,
  Logger,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { QueryFailedError } from 'typeorm';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  databaseOutage,
} from '../../database/database-availability.js';
import type { ErrorResponseDto, ValidationErrorResponseDto } from './error-response.dto.js';
import { ValidationFailedException } from './validation-failed.exception.js';

type ErrorBody = ErrorResponseDto | ValidationErrorResponseDto;

interface MappedError {
  status: number;
  body: ErrorBody;
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
 * Writes every error as `{"error": "..."}` (plus `fields` on 422). Client mistakes keep their
 * 4xx; PostgreSQL constraint errors become 409 or 422; anything else is a 500 that is logged
 * with its stack and answered with only a request id.
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    // The database being away is an outage, not a defect: 503, logged once per outage.
    if (databaseOutage.explains(exception)) {
      databaseOutage.failed(exception);
      if (response.headersSent) response.end();
      else
        response
          .status(HttpStatus.SERVICE_UNAVAILABLE)
          .setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS))
          .json({ error: 'database unavailable' });
      return;
    }
    const { status, body } = this.map(exception, request);
    if (response.headersSent) {
      response.end();
      return;
    }
    response.status(status).json(body);
  }

  private map(exception: unknown, request: Request): MappedError {
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
    if (exception instanceof QueryFailedError) {
      const mapped = mapDatabaseError(exception.driverError as PostgresError);
      if (mapped) return mapped;
    }
    const requestId = `${request.id as string}`;
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

interface PostgresError {
  code?: string;
  constraint?: string;
  column?: string;
  detail?: string;
}

function mapDatabaseError(driverError: PostgresError): MappedError | undefined {
  const constraint = driverError.constraint ? ` (${driverError.constraint})` : '';
  switch (driverError.code) {
    case '23505':
      return {
        status: HttpStatus.CONFLICT,
        body: { error: `a record with the same unique values already exists${constraint}` },
      };
    case '23503':
      return {
        status: HttpStatus.CONFLICT,
        body: { error: `the record is referenced by, or refers to, a missing record${constraint}` },
      };
    case '23514':
    case '23502':
    case '22001':
    case '22003':
      return {
        status: HttpStatus.UNPROCESSABLE_ENTITY,
        body: { error: `a value is out of range or not allowed${constraint}` },
      };
    case '22P02':
    case '22007':
    case '22008':
      return { status: HttpStatus.BAD_REQUEST, body: { error: 'a value has an invalid format' } };
    default:
      return undefined;
  }
}
