import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Level, Logger } from 'pino';

export const REQUEST_ID_HEADER = 'X-Request-Id';
const HEALTH_PATH = '/api/v1/health/';
const ACCEPTED_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A request once `requestLogging` has seen it. */
export type IdentifiedRequest = IncomingMessage & { id: string };

/**
 * Health probes (every few seconds from Docker, Kubernetes or a load balancer) log at debug when
 * they pass, and at warn when they fail: a failing probe is their purpose while the database is
 * unreachable or the server is shutting down, whose cause is logged once on its own.
 */
function levelOf(request: IncomingMessage, statusCode: number): Level {
  const probe = request.url?.startsWith(HEALTH_PATH) === true;
  if (statusCode >= 500) return probe ? 'warn' : 'error';
  if (statusCode >= 400) return 'warn';
  return probe ? 'debug' : 'info';
}

/**
 * Gives every request an id (the caller's X-Request-Id when it is a sane token, else a new
 * UUID), echoes it in the response, and writes one log line per request carrying it, when its
 * answer has gone (or its client went away first): method, URL (an `access_token` in the query
 * redacted), status and response time in milliseconds. Nothing is built for a line whose level
 * is off.
 */
export function requestLogging(
  logger: Logger,
): (request: IncomingMessage, response: ServerResponse, next?: () => void) => void {
  return (request, response, next) => {
    const given = request.headers['x-request-id'];
    const id = typeof given === 'string' && ACCEPTED_REQUEST_ID.test(given) ? given : randomUUID();
    (request as IdentifiedRequest).id = id;
    response.setHeader(REQUEST_ID_HEADER, id);
    const startedAt = performance.now();
    response.once('close', () => {
      const level = levelOf(request, response.statusCode);
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        {
          req: {
            id,
            method: request.method,
            url: request.url?.replace(/([?&]access_token=)[^&]*/g, '$1[redacted]'),
          },
          res: { statusCode: response.statusCode },
          responseTime: Math.round(performance.now() - startedAt),
        },
        response.writableFinished ? 'request completed' : 'request aborted',
      );
    });
    next?.();
  };
}
