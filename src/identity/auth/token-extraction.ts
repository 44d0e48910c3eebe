import type { Request } from 'express';

export const SESSION_COOKIE = 'hb.auth.token';
export const REMEMBER_COOKIE = 'hb.auth.remember';
export const SESSION_FLAG_COOKIE = 'hb.auth.session';
export const ATTACHMENT_TOKEN_COOKIE = 'hb.auth.attachment_token';

export type TokenSource = 'header' | 'cookie' | 'query' | 'subprotocol';

export interface PresentedToken {
  token: string;
  source: TokenSource;
}

/**
 * Finds the caller's credential: the Authorization header (with or without `Bearer `), else the
 * session cookie the web UI uses (with its `remember` companion), else `?access_token=`.
 */
export function presentedToken(request: Request): PresentedToken | undefined {
  const header = request.headers.authorization;
  if (typeof header === 'string' && header.trim() !== '') {
    return { token: header.trim().replace(/^bearer\s+/i, ''), source: 'header' };
  }
  const cookies = request.cookies as Record<string, string> | undefined;
  const cookie = cookies?.[SESSION_COOKIE];
  if (cookie && cookies?.[REMEMBER_COOKIE] !== undefined)
    return { token: cookie, source: 'cookie' };
  const query = request.query.access_token;
  if (typeof query === 'string' && query !== '') return { token: query, source: 'query' };
  return undefined;
}

/** The WebSocket subprotocol Homebox's web UI offers, followed by its token. */
export const AUTH_SUBPROTOCOL = 'hb-auth';

/**
 * The token of a WebSocket upgrade offering `Sec-WebSocket-Protocol: hb-auth, <token>` (browsers
 * cannot set an Authorization header on a WebSocket): the protocol that follows `hb-auth`.
 */
export function subprotocolToken(request: Pick<Request, 'headers'>): string | undefined {
  const header = request.headers['sec-websocket-protocol'];
  if (typeof header !== 'string') return undefined;
  const offered = header.split(',').map((protocol) => protocol.trim());
  const at = offered.indexOf(AUTH_SUBPROTOCOL);
  const token = at >= 0 ? offered[at + 1] : undefined;
  return token === undefined || token === '' ? undefined : token;
}

/**
 * A WebSocket upgrade's credential: the Authorization header, else the `hb-auth` subprotocol's
 * token, else the session cookie, else `?access_token=`.
 */
export function presentedUpgradeToken(request: Request): PresentedToken | undefined {
  const presented = presentedToken(request);
  if (presented?.source === 'header') return presented;
  const token = subprotocolToken(request);
  if (token !== undefined) return { token, source: 'subprotocol' };
  return presented;
}
