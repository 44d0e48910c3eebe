import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

type Middleware = (request: IncomingMessage, response: ServerResponse, next: () => void) => void;

/**
 * Helmet's headers for `options`, worked out once. With options that depend on nothing in the
 * request (no nonces), helmet sets the same headers on every answer; this middleware sets them
 * from that list in one step instead of running helmet's dozen middlewares for each request.
 */
export function securityHeaders(options: HelmetOptions): Middleware {
  const headers: [name: string, value: string | number | readonly string[]][] = [];
  let complete = false;
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.push([name, value]);
      return recorder;
    },
    removeHeader: () => undefined,
    getHeader: () => undefined,
  };
  helmet(options)(
    { headers: {}, method: 'GET', url: '/' } as IncomingMessage,
    recorder as unknown as ServerResponse,
    (error?: unknown) => {
      if (error) throw new Error('helmet refused its options', { cause: error });
      complete = true;
    },
  );
  if (!complete) throw new Error('helmet did not set its headers at once');
  return (_request, response, next) => {
    for (const [name, value] of headers) response.setHeader(name, value);
    next();
  };
}
