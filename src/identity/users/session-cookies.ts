import type { Request, Response } from 'express';
import {
  ATTACHMENT_TOKEN_COOKIE,
  REMEMBER_COOKIE,
  SESSION_COOKIE,
  SESSION_FLAG_COOKIE,
} from '../auth/token-extraction.js';
import type { IssuedSession } from '../auth/sessions.service.js';

/** Sets the cookies Homebox's web UI signs in with. */
export function setSessionCookies(
  request: Request,
  response: Response,
  session: IssuedSession,
  remember: boolean,
): void {
  const base = {
    path: '/',
    sameSite: 'lax' as const,
    secure: request.secure,
    expires: session.expiresAt,
  };
  response.cookie(SESSION_COOKIE, session.token, { ...base, httpOnly: true });
  response.cookie(REMEMBER_COOKIE, String(remember), { ...base, httpOnly: true });
  response.cookie(SESSION_FLAG_COOKIE, 'true', { ...base, httpOnly: false });
  response.cookie(ATTACHMENT_TOKEN_COOKIE, session.attachmentToken, { ...base, httpOnly: false });
}

export function clearSessionCookies(request: Request, response: Response): void {
  const base = {
    path: '/',
    sameSite: 'lax' as const,
    secure: request.secure,
    expires: new Date(0),
  };
  response.cookie(SESSION_COOKIE, '', { ...base, httpOnly: true });
  response.cookie(REMEMBER_COOKIE, 'false', { ...base, httpOnly: true });
  response.cookie(SESSION_FLAG_COOKIE, 'false', { ...base, httpOnly: false });
  response.cookie(ATTACHMENT_TOKEN_COOKIE, '', { ...base, httpOnly: false });
}
