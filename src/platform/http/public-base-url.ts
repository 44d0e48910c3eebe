import type { Request } from 'express';

/**
 * Trove's public base URL, for links it hands out (callbacks, resource locations): the
 * configured hostname (TROVE_OPTIONS_HOSTNAME, `http://` unless it names a scheme), else the
 * scheme and Host of the request. No trailing slash.
 */
export function publicBaseUrl(hostname: string, request: Request): string {
  const configured = hostname.trim();
  if (configured !== '') {
    const base = /^[a-z][a-z0-9+.-]*:\/\//i.test(configured) ? configured : `http://${configured}`;
    return base.replace(/\/+$/, '');
  }
  return `${request.protocol}://${request.get('host') ?? ''}`;
}
