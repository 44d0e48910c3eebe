import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { HttpErrorFilter } from '../../platform/http/http-error.filter.js';
import { errorPage } from './page-layout.js';
import { PAGE_PATHS } from './page-paths.js';

const TITLES: Record<number, string> = {
  400: 'That request was not understood',
  401: 'Sign in again',
  403: 'Not allowed',
  404: 'Not found',
  409: 'That changed meanwhile',
  413: 'Too large',
  422: 'Check the form',
  429: 'Too many attempts',
  503: 'Trove cannot answer right now',
};

const UNAVAILABLE = 'Trove cannot answer right now. Try again in a moment.';

/**
 * The errors of a page, as a page: a browser that is not signed in is sent to the sign-in page,
 * which brings it back afterwards; anything else is a page with the status and message the API
 * would answer (`HttpErrorFilter.describe`, the one place that decides them), the fields of a
 * refused form listed. A 500 says only that something went wrong, and is logged there.
 */
@Catch()
export class PageErrorFilter implements ExceptionFilter {
  private readonly errors = new HttpErrorFilter();

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const { status, body, retryAfterSeconds } = this.errors.describe(exception, request);
    if (response.headersSent) {
      response.end();
      return;
    }
    if (status === 401 && (request.method === 'GET' || request.method === 'HEAD')) {
      const next = encodeURIComponent(request.originalUrl);
      response.redirect(302, `${PAGE_PATHS.signInForm}?next=${next}`);
      return;
    }
    if (retryAfterSeconds !== undefined) {
      response.setHeader('Retry-After', String(retryAfterSeconds));
    }
    const fields = 'fields' in body && body.fields ? body.fields : {};
    const problems = Object.entries(fields).map(([name, problem]) => `${name}: ${problem}`);
    const message =
      status >= 500
        ? status === 503
          ? UNAVAILABLE
          : `Something went wrong (request ${'requestId' in body ? String(body.requestId) : 'unknown'}).`
        : status === 401
          ? 'Your session has ended. Sign in again, then send the form once more.'
          : problems.length > 0
            ? 'Correct what is listed below, then send the form again.'
            : body.error;
    response
      .status(status)
      .type('html')
      .send(errorPage(TITLES[status] ?? 'Something went wrong', message, problems));
  }
}
