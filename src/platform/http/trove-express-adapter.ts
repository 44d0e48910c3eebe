import type { INestApplication } from '@nestjs/common';
// The adapter's methods through which Nest registers route handlers, by request method.
import { REQUEST_METHOD_MAP } from '@nestjs/core/helpers/router-method-factory.js';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { InFlightHandlers } from './in-flight-handlers.js';
import { JsonText, sendJsonText } from './json-text.js';

type Register = (...args: unknown[]) => unknown;
type RouteHandler = (request: Request, response: Response, next: NextFunction) => unknown;

/**
 * Nest's Express adapter, which
 * - runs every route handler registered through it counted by `handlers` (`InFlightHandlers`),
 *   so that shutdown can wait for the handlers still running, without wrapping each request in
 *   an interceptor;
 * - sends the responses route handlers return already written as JSON (`JsonText`) as they are,
 *   instead of serialising them again.
 */
export class TroveExpressAdapter extends ExpressAdapter {
  /** The route handlers running. */
  readonly handlers = new InFlightHandlers();

  constructor() {
    super();
    const self = this as unknown as Record<string, Register>;
    for (const method of Object.values(REQUEST_METHOD_MAP)) {
      const register = self[method].bind(this);
      self[method] = (...args: unknown[]) => register(...args.map((arg) => this.counted(arg)));
    }
  }

  override reply(response: unknown, body: unknown, statusCode?: number): unknown {
    if (body instanceof JsonText) {
      sendJsonText(response as Response, body, statusCode);
      return undefined;
    }
    return super.reply(response, body, statusCode);
  }

  /** A route handler, counted while it runs; any other argument (a path) as it is. */
  private counted(argument: unknown): unknown {
    // Four parameters make an Express error handler, which this does not wrap.
    if (typeof argument !== 'function' || argument.length > 3) return argument;
    const handler = argument as RouteHandler;
    // Nest reads route options (the version) from properties of the handler: they are kept.
    return Object.assign(
      (request: Request, response: Response, next: NextFunction) =>
        this.handlers.run(() => handler(request, response, next)),
      handler,
    );
  }
}

/** The route handlers running in `app`, which runs on `TroveExpressAdapter` (`createApp`). */
export function runningHandlers(app: INestApplication): InFlightHandlers {
  const adapter = app.getHttpAdapter();
  if (!(adapter instanceof TroveExpressAdapter)) {
    throw new Error('the app does not run on TroveExpressAdapter');
  }
  return adapter.handlers;
}
