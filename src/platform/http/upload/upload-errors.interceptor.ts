import {
  BadRequestException,
  HttpException,
  Injectable,
  PayloadTooLargeException,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Request, Response } from 'express';
import { catchError, type Observable, throwError } from 'rxjs';
import type { TroveConfig } from '../../config/configuration.js';

/** Room for the form's other fields and boundaries on top of the file (as Homebox). */
const FORM_OVERHEAD_BYTES = 1024 * 1024;

export const uploadTooLargeMessage = (limit: number): string =>
  `uploaded file exceeds the size limit of ${limit} bytes`;

/**
 * Bound before multer's FileInterceptor: refuses a request whose declared length is beyond any
 * acceptable upload without reading it, and gives multer's errors Trove's messages — 413 for a
 * file over `TROVE_WEB_MAX_UPLOAD_SIZE`, 400 `failed to parse multipart form: ...` otherwise.
 */
@Injectable()
export class UploadErrorsInterceptor implements NestInterceptor {
  constructor(private readonly config: ConfigService<TroveConfig, true>) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const limit = this.config.get('web', { infer: true }).maxUploadBytes;
    const request = context.switchToHttp().getRequest<Request>();
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > limit + FORM_OVERHEAD_BYTES) {
      // The body is not read; the connection cannot be reused.
      context.switchToHttp().getResponse<Response>().setHeader('Connection', 'close');
      throw new PayloadTooLargeException(uploadTooLargeMessage(limit));
    }
    return next
      .handle()
      .pipe(catchError((error: unknown) => throwError(() => translate(error, limit))));
  }
}

/** multer's errors (the Nest exceptions carry them as `cause`) in Trove's words; others as they are. */
function translate(error: unknown, limit: number): unknown {
  if (!(error instanceof HttpException) || !(error.cause instanceof Error)) return error;
  if (error instanceof PayloadTooLargeException) {
    return new PayloadTooLargeException(uploadTooLargeMessage(limit));
  }
  if (error.getStatus() === 400) {
    return new BadRequestException(`failed to parse multipart form: ${error.message}`);
  }
  return error;
}
