import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { CookieOptions, Request, Response } from 'express';

export const OIDC_STATE_COOKIE = 'trove.oidc.state';
/** The state cookie goes only to the two OIDC routes. */
export const OIDC_COOKIE_PATH = '/api/v1/users/login/oidc';

/** What one sign-in carries from the start route to the callback. */
export interface OidcStatePayload {
  /** The `state` parameter sent to the provider. */
  state: string;
  nonce: string;
  /** PKCE code verifier. */
  verifier: string;
  /** Epoch milliseconds after which the sign-in is void. */
  expiresAt: number;
}

/** One sign-in request/response pair, shared by the state store, the token client and the strategy. */
export interface OidcFlow {
  readonly request: Request;
  readonly response: Response;
  /** A fresh verifier on the start route; the stored one on the callback once the state verified. */
  codeVerifier: string;
  /** The stored nonce, on the callback once the state verified. */
  nonce?: string;
}

export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

export const pkceChallenge = (verifier: string): string =>
  createHash('sha256').update(verifier).digest('base64url');

const mac = (body: string, key: Buffer): Buffer => createHmac('sha256', key).update(body).digest();

/** `<base64url JSON>.<base64url HMAC-SHA-256>`: readable by anyone, forgeable by no one. */
export function sealState(payload: OidcStatePayload, key: Buffer): string {
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${body}.${mac(body, key).toString('base64url')}`;
}

export type OpenedState = { ok: true; payload: OidcStatePayload } | { ok: false; reason: string };

/** Checks a sealed state's signature and expiry. */
export function openState(sealed: unknown, key: Buffer, now = Date.now()): OpenedState {
  if (typeof sealed !== 'string' || sealed === '') {
    return { ok: false, reason: 'no state cookie' };
  }
  const [body, signature, ...rest] = sealed.split('.');
  if (!body || !signature || rest.length > 0)
    return { ok: false, reason: 'malformed state cookie' };
  const expected = mac(body, key);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'state cookie signature does not match' };
  }
  let payload: Partial<OidcStatePayload>;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as OidcStatePayload;
  } catch {
    return { ok: false, reason: 'malformed state cookie' };
  }
  if (
    typeof payload.state !== 'string' ||
    typeof payload.nonce !== 'string' ||
    typeof payload.verifier !== 'string' ||
    typeof payload.expiresAt !== 'number'
  ) {
    return { ok: false, reason: 'malformed state cookie' };
  }
  if (payload.expiresAt <= now) return { ok: false, reason: 'the sign-in has expired' };
  return { ok: true, payload: payload as OidcStatePayload };
}

const sameText = (a: string, b: string): boolean => {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
};

function cookieOptions(request: Request, maxAge?: number): CookieOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    secure: request.secure,
    path: OIDC_COOKIE_PATH,
    ...(maxAge === undefined ? { expires: new Date(0) } : { maxAge }),
  };
}

export function clearStateCookie(request: Request, response: Response): void {
  response.cookie(OIDC_STATE_COOKIE, '', cookieOptions(request));
  response.cookie(OIDC_NEXT_COOKIE, '', cookieOptions(request));
}

/** Where the browser was going when it started to sign in, for the callback. */
export const OIDC_NEXT_COOKIE = 'trove.oidc.next';

/** Notes where the browser goes once signed in (read back by `nextOf`); nothing for `/home`. */
export function setNextCookie(
  request: Request,
  response: Response,
  next: string,
  maxAgeMs: number,
): void {
  response.cookie(OIDC_NEXT_COOKIE, next, cookieOptions(request, maxAgeMs));
}

/** What `setNextCookie` noted on this sign-in's start, unchecked. */
export function nextOf(request: Request): unknown {
  return (request.cookies as Record<string, unknown> | undefined)?.[OIDC_NEXT_COOKIE];
}

/**
 * States this instance has seen come back, until they expire, so a callback cannot be replayed.
 * Another instance would still refuse the replayed code: the provider redeems a code once.
 */
export class ConsumedStates {
  private readonly seen = new Map<string, number>();

  constructor(private readonly capacity = 100_000) {}

  /** Marks the state as used; false when it already was. */
  consume(state: string, expiresAt: number, now = Date.now()): boolean {
    for (const [key, expiry] of this.seen) {
      if (expiry > now && this.seen.size < this.capacity) break;
      this.seen.delete(key);
    }
    if (this.seen.has(state)) return false;
    this.seen.set(state, expiresAt);
    return true;
  }
}

type StoreCallback = (error: Error | null, handle?: string) => void;
type VerifyCallback = (
  error: Error | null,
  context?: false | { nonce?: string },
  info?: { message: string },
) => void;

/**
 * passport-openidconnect's `store`: keeps state, nonce and PKCE verifier in one short-lived,
 * HMAC-signed, HttpOnly, SameSite=Lax cookie instead of a server session, so any instance can
 * finish a sign-in that another started.
 */
export class CookieStateStore {
  constructor(
    private readonly flow: OidcFlow,
    private readonly key: Buffer,
    private readonly expiryMs: number,
    private readonly consumed: ConsumedStates,
  ) {}

  store(
    request: Request,
    context: { nonce?: string },
    _appState: unknown,
    _meta: unknown,
    callback: StoreCallback,
  ): void {
    if (!context.nonce) {
      callback(new Error('the strategy made no nonce'));
      return;
    }
    const payload: OidcStatePayload = {
      state: randomToken(24),
      nonce: context.nonce,
      verifier: this.flow.codeVerifier,
      expiresAt: Date.now() + this.expiryMs,
    };
    this.flow.response.cookie(
      OIDC_STATE_COOKIE,
      sealState(payload, this.key),
      cookieOptions(request, this.expiryMs),
    );
    callback(null, payload.state);
  }

  verify(request: Request, handle: unknown, callback: VerifyCallback): void {
    const cookies = request.cookies as Record<string, unknown> | undefined;
    const opened = openState(cookies?.[OIDC_STATE_COOKIE], this.key);
    if (!opened.ok) {
      callback(null, false, { message: opened.reason });
      return;
    }
    const { payload } = opened;
    if (typeof handle !== 'string' || !sameText(handle, payload.state)) {
      callback(null, false, { message: 'state parameter does not match the state cookie' });
      return;
    }
    if (!this.consumed.consume(payload.state, payload.expiresAt)) {
      callback(null, false, { message: 'state was already used' });
      return;
    }
    this.flow.codeVerifier = payload.verifier;
    this.flow.nonce = payload.nonce;
    callback(null, { nonce: payload.nonce });
  }
}
