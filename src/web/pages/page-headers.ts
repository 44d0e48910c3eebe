import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { securityHeaders } from '../../platform/http/security-headers.js';
import { pageHeaders as pageSecurity } from './content-security.js';
import { isPagePath, PAGE_PATHS } from './page-paths.js';

const isConsolePath = (path: string): boolean =>
  path === PAGE_PATHS.console || path.startsWith(`${PAGE_PATHS.console}/`);

/**
 * Middleware that gives Trove's own pages their headers: a strict Content-Security-Policy (no
 * script at all on the sign-in pages; the console's own scripts, none inline) in place of the
 * API's, and `Cache-Control: no-store` (a page's handler may say otherwise, as the stylesheet's
 * does). Mounted after the web UI directory, which answers its own paths with its own headers.
 */
export function pageHeaders(): RequestHandler {
  const signIn = securityHeaders(pageSecurity(false));
  const console = securityHeaders(pageSecurity(true));
  return (request: Request, response: Response, next: NextFunction) => {
    if (!isPagePath(request.path)) return next();
    response.setHeader('Cache-Control', 'no-store');
    (isConsolePath(request.path) ? console : signIn)(request, response, next);
  };
}
