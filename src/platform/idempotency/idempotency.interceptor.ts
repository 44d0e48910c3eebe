import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import { ErrorResponseDto, ValidationErrorResponseDto } from '../errors/error-response.dto.js';
import {
  applyDecorators,
  BadRequestException,
  ConflictException,
  Injectable,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants.js';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { from, lastValueFrom, mergeMap, of, throwError, type Observable } from 'rxjs';
import type { AuthIdentity } from '../../identity/auth/auth-user.js';
import { ValidationFailedException } from '../errors/validation-failed.exception.js';
import { JsonText } from '../http/json-text.js';
import type { StoredResponse } from './idempotency-key.repository.js';
import { IdempotencyService } from './idempotency.service.js';
import { requestFingerprint } from './request-fingerprint.js';
import { telemetry } from '../telemetry/telemetry.js';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const IN_PROGRESS_MESSAGE = 'a request with this Idempotency-Key is still in progress';
export const BAD_KEY_MESSAGE = 'Idempotency-Key must be 1 to 255 printable ASCII characters';
export const KEY_REUSED_MESSAGE =
  'was already used for a different request (method, path or body) in the last 24 hours';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/** A handler's answer as the response kept for its key: status, `ETag` and JSON text. */
const storedResponse = (status: number, body: unknown): StoredResponse => ({
  status,
  headers: body instanceof JsonText && body.etag ? { ETag: body.etag } : {},
  body:
    body === undefined
      ? null
      : body instanceof JsonText
        ? body.body.toString()
        : JSON.stringify(body),
});

/**
 * For routes marked @Idempotent(), which applies it to them alone: with an `Idempotency-Key`
 * header, the handler runs in one transaction that takes the key, makes the change and stores
 * the response (IdempotencyService.run), so a change that committed always has its response
 * kept and a change that failed, even at commit, leaves the key free for a retry. A concurrent
 * request with the key gets 409; a repeat with the same key, user and request gets the stored
 * response again; with another request, 422. Without the header nothing changes.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: IdempotencyService,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<Request & { user?: AuthIdentity }>();
    const response = context.switchToHttp().getResponse<Response>();
    const header = request.headers[IDEMPOTENCY_HEADER.toLowerCase()];
    const user = request.user;
    if (header === undefined || !user) return next.handle();
    const key = Array.isArray(header) ? header.join(', ') : header;
    if (!KEY_PATTERN.test(key)) throw new BadRequestException(BAD_KEY_MESSAGE);

    const fingerprint = requestFingerprint({
      method: request.method,
      url: request.originalUrl,
      tenant: user.tenant?.groupId ?? null,
      // A multipart upload is not read yet; its declared length stands in for it.
      body: request.is('multipart/form-data')
        ? { multipart: request.headers['content-length'] ?? null }
        : request.body,
    });
    const status =
      this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler()) ??
      (request.method === 'POST' ? 201 : 200);
    // The handler is called inside the transaction, so that its work joins it.
    const outcome = this.keys.run(
      { userId: user.id, key, fingerprint },
      () => lastValueFrom(next.handle(), { defaultValue: undefined }),
      (body: unknown) => storedResponse(status, body),
    );
    return from(outcome).pipe(
      mergeMap((result) => {
        switch (result.kind) {
          case 'mismatch':
            return throwError(() =>
              ValidationFailedException.forField(IDEMPOTENCY_HEADER, KEY_REUSED_MESSAGE),
            );
          case 'in-progress':
            return throwError(() => new ConflictException(IN_PROGRESS_MESSAGE));
          case 'replay': {
            const { body, headers } = result.response;
            response.setHeader(REPLAYED_HEADER, 'true');
            telemetry().count('trove.idempotency.replays');
            // The stored JSON is sent as it was first written.
            return of(body === null ? undefined : new JsonText(body, headers.ETag));
          }
          case 'answered':
            return of(result.answer);
        }
      }),
    );
  }
}

/**
 * Marks a route whose repeat would do its work twice (a create, a return of part of a
 * check-out): it accepts an `Idempotency-Key` header, and a repeat with the same key by the same
 * user within 24 hours gets the first response again instead of doing anything, the response
 * being stored in the change's own transaction (the interceptor above, which runs on these
 * routes only).
 */
export const Idempotent = (): MethodDecorator =>
  applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: IDEMPOTENCY_HEADER,
      required: false,
      description:
        'Up to 255 printable ASCII characters, unique per intended operation (a UUID, say). A ' +
        'repeat with the same key by the same user within 24 hours answers the first response ' +
        'again (with `Idempotent-Replayed: true`) and does nothing. The response is stored in ' +
        'the transaction of the change, so a retry after a lost answer gets it and changes ' +
        'nothing; a failed request does not use up its key.',
      schema: { type: 'string', maxLength: 255 },
    }),
    ApiResponse({
      status: 400,
      description: 'An Idempotency-Key that is empty, longer than 255 characters or not ASCII',
      type: ErrorResponseDto,
    }),
    ApiResponse({
      status: 409,
      description: 'A request with this Idempotency-Key is still in progress',
      type: ErrorResponseDto,
    }),
    ApiResponse({
      status: 422,
      description: 'The Idempotency-Key was used for a different request (`fields` says so)',
      type: ValidationErrorResponseDto,
    }),
  );
