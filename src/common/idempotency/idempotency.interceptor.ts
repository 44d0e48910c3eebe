import {
  BadRequestException,
  ConflictException,
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants.js';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { catchError, from, mergeMap, of, throwError, type Observable } from 'rxjs';
import type { AuthIdentity } from '../../auth/auth-user.js';
import { ValidationFailedException } from '../../database/validation-failed.exception.js';
import { JsonAnswer } from '../http/json-answer.js';
import { IdempotencyService } from './idempotency.service.js';
import { requestFingerprint } from './request-fingerprint.js';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const IN_PROGRESS_MESSAGE = 'a request with this Idempotency-Key is still in progress';
export const BAD_KEY_MESSAGE = 'Idempotency-Key must be 1 to 255 printable ASCII characters';
export const KEY_REUSED_MESSAGE =
  'was already used for a different request (method, path or body) in the last 24 hours';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/** A handler's answer as the JSON text it is sent as (null for none), to send again as it is. */
const storedBody = (body: unknown): string | null =>
  body === undefined
    ? null
    : body instanceof JsonAnswer
      ? body.body.toString()
      : JSON.stringify(body);

/**
 * For routes marked @Idempotent(), which applies it to them alone: with an `Idempotency-Key`
 * header, the key is reserved in PostgreSQL before the handler runs (a concurrent request with the key gets 409), the
 * response is stored once the handler succeeds, and the reservation is deleted when it fails,
 * so a retry runs again. A repeat with the same key, user and request gets the stored response
 * again; with another request, 422. Without the header nothing changes.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: IdempotencyService,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
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
    const claim = await this.keys.claim(user.id, key, fingerprint);
    switch (claim.kind) {
      case 'mismatch':
        throw ValidationFailedException.forField(IDEMPOTENCY_HEADER, KEY_REUSED_MESSAGE);
      case 'in-progress':
        throw new ConflictException(IN_PROGRESS_MESSAGE);
      case 'replay':
        response.setHeader(REPLAYED_HEADER, 'true');
        // The stored JSON is sent as it was first written.
        return of(claim.body === null ? undefined : new JsonAnswer(claim.body));
    }
    const { reservation } = claim;
    const status =
      this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler()) ??
      (request.method === 'POST' ? 201 : 200);
    return next.handle().pipe(
      mergeMap(async (body: unknown) => {
        await this.keys.complete(reservation, status, storedBody(body));
        return body;
      }),
      catchError((error: unknown) =>
        from(this.keys.release(reservation)).pipe(mergeMap(() => throwError(() => error))),
      ),
    );
  }
}
