import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { pinoHttp, type HttpLogger } from 'pino-http';

export const REQUEST_ID_HEADER = 'X-Request-Id';
const HEALTH_PATH = '/api/v1/health/';
const ACCEPTED_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request an id (the caller's X-Request-Id when it is a sane token, else a new
 * UUID), echoes it in the response, and writes one log line per request carrying it.
 */
export function requestLogging(logger: Logger): HttpLogger {
  return pinoHttp({
    logger,
    genReqId: (req: IncomingMessage, res: ServerResponse) => {
      const given = req.headers['x-request-id'];
      const id =
        typeof given === 'string' && ACCEPTED_REQUEST_ID.test(given) ? given : randomUUID();
      res.setHeader(REQUEST_ID_HEADER, id);
      return id;
    },
    // Health probes (every few seconds from Docker or Kubernetes) log at debug when they pass.
    customLogLevel: (req, res, error) =>
      error || res.statusCode >= 500
        ? 'error'
        : res.statusCode >= 400
          ? 'warn'
          : req.url?.startsWith(HEALTH_PATH)
            ? 'debug'
            : 'info',
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        url: req.url.replace(/([?&]access_token=)[^&]*/g, '$1[redacted]'),
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}
