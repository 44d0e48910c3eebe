import type { Request } from 'express';

export const SESSION_COOKIE = 'hb.auth.token';
export const REMEMBER_COOKIE = 'hb.auth.remember';
export const SESSION_FLAG_COOKIE = 'hb.auth.session';
export const ATTACHMENT_TOKEN_COOKIE = 'hb.auth.attachment_token';

export type TokenSource = 'header' | 'cookie' | 'query';

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
