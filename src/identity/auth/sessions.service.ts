import { createSecretKey, type KeyObject, randomUUID, timingSafeEqual } from 'node:crypto';
import { Injectable, NotFoundException } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Transactional } from '@nestjs-cls/transactional';
import jwt from 'jsonwebtoken';
import { sha256 } from './sha256.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import type { AuthIdentity } from './auth-user.js';
import type { SessionDto } from './dto/session.dto.js';
import { IdentityRepository } from './identity.repository.js';
import { ServerSecretsService } from './server-secrets.service.js';
import { SessionRepository, type SessionOrigin } from './session.repository.js';
import {
  credentialKey,
  VerifiedCredentials,
  type VerifiedCredential,
} from './verified-credentials.js';

export const TOKEN_ISSUER = 'trove';
/**
 * What a session or attachment token must be to be read at all, wherever it is checked (the
 * passport-jwt strategy of HTTP requests, `authenticate` for sockets and pages' callers): signed
 * with HS256 by Trove's key, issued by and for Trove, not expired.
 */
export const TOKEN_CHECKS = {
  algorithms: ['HS256'],
  issuer: TOKEN_ISSUER,
  audience: TOKEN_ISSUER,
} satisfies { algorithms: jwt.Algorithm[]; issuer: string; audience: string };
export const TOKEN_SIGNING_KEY = 'token-signing-key';
const DAY_MS = 24 * 60 * 60 * 1000;
export const SESSION_LIFETIME_MS = 7 * DAY_MS;
export const LONG_SESSION_LIFETIME_MS = 28 * DAY_MS;

/** Claims of Trove's tokens besides the registered ones (sub = user, jti = stored token row). */
export interface TokenClaims {
  sub: string;
  jti: string;
  typ: 'session' | 'attachment';
  /** Expiry, in seconds since the epoch (passport-jwt has checked it). */
  exp?: number;
}

export interface IssuedSession {
  sessionId: string;
  token: string;
  attachmentToken: string;
  expiresAt: Date;
}

/** The earlier of a stored expiry and a token's (milliseconds since the epoch); null: none. */
const earlier = (stored: Date | null, token: number | null): Date | null =>
  token !== null && (stored === null || token < stored.getTime()) ? new Date(token) : stored;

/** A verified session or attachment token as the caller sees it (a fresh object each time). */
function toIdentity(verified: VerifiedCredential): AuthIdentity {
  const tokenId = verified.credentialId;
  return {
    id: verified.userId,
    credential: verified.roles.includes('user')
      ? { kind: 'session', tokenId }
      : { kind: 'attachment', tokenId },
    tokenRoles: [...verified.roles],
    tenant: verified.tenant && { ...verified.tenant },
  };
}

/**
 * Sign-in sessions: each is a signed JWT naming a stored `auth_tokens` row that holds the
 * token's SHA-256, so deleting the row revokes the token at once. A session comes with an
 * attachment token (role `attachments`) that only downloads and the change feed accept; the two
 * are one pair: the attachment token's row names its session and ends with it, whichever way
 * the session ends (logout, refresh, logout everywhere, password change or reset, back-channel
 * logout, account disabled or deleted).
 */
@Injectable()
export class SessionsService {
  private key: Promise<KeyObject> | undefined;

  constructor(
    private readonly sessions: SessionRepository,
    private readonly secrets: ServerSecretsService,
    private readonly identities: IdentityRepository,
    private readonly verified: VerifiedCredentials,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  /** Deletes the sessions that expired; how many (the hourly purge). */
  deleteExpired(): Promise<number> {
    return this.sessions.deleteExpired();
  }

  /**
   * The HS256 key, made a KeyObject once: given raw bytes, jsonwebtoken would try (and fail) to
   * parse them as a public key on every verification.
   */
  signingKey(): Promise<KeyObject> {
    this.key ??= this.secrets
      .get(TOKEN_SIGNING_KEY, this.config.get('auth', { infer: true }).tokenSecret)
      .then(createSecretKey);
    this.key.catch(() => (this.key = undefined));
    return this.key;
  }

  /**
   * A new session of the user; `singleSignOn` when an SSO sign-in issues it (or renews one that
   * did), so that changes made with it are attributed to the SSO identity, and the provider's
   * session id it was created in, so that the provider's back-channel logout ends it.
   */
  async issue(
    userId: string,
    options: { long: boolean; singleSignOn?: boolean; providerSessionId?: string | null },
  ): Promise<IssuedSession> {
    const lifetime = options.long ? LONG_SESSION_LIFETIME_MS : SESSION_LIFETIME_MS;
    const expiresAt = new Date(Math.floor((Date.now() + lifetime) / 1000) * 1000);
    const key = await this.signingKey();
    const sessionId = randomUUID();
    const attachmentId = randomUUID();
    const sign = (jti: string, typ: TokenClaims['typ']): string =>
      jwt.sign({ typ }, key, {
        algorithm: 'HS256',
        subject: userId,
        jwtid: jti,
        issuer: TOKEN_ISSUER,
        audience: TOKEN_ISSUER,
        expiresIn: Math.round((expiresAt.getTime() - Date.now()) / 1000),
      });
    const token = sign(sessionId, 'session');
    const attachmentToken = sign(attachmentId, 'attachment');
    await this.sessions.insert([
      {
        id: sessionId,
        userId,
        tokenHash: sha256(token),
        expiresAt,
        role: 'user',
        singleSignOn: options.singleSignOn ?? false,
        providerSessionId: options.providerSessionId ?? null,
      },
      {
        id: attachmentId,
        userId,
        tokenHash: sha256(attachmentToken),
        expiresAt,
        role: 'attachments',
        singleSignOn: options.singleSignOn ?? false,
        providerSessionId: options.providerSessionId ?? null,
        sessionId,
      },
    ]);
    return { sessionId, token, attachmentToken, expiresAt };
  }

  /**
   * The identity behind a token whose signature and expiry passport-jwt has checked: the stored
   * row must still exist, be unexpired and hold this token's hash. An answer verified before is
   * taken from `VerifiedCredentials`, which forgets it when any instance revokes the token.
   */
  async identify(
    claims: TokenClaims,
    rawToken: string,
    tenant: string | undefined,
  ): Promise<AuthIdentity | undefined> {
    const hash = sha256(rawToken);
    const key = credentialKey(hash, tenant);
    const cached = this.verified.get(key);
    if (cached) {
      return cached.userId === claims.sub && cached.credentialId === claims.jti
        ? toIdentity(cached)
        : undefined;
    }
    const ticket = this.verified.ticket();
    const stored = await this.identities.findBySessionToken(claims.jti, tenant);
    if (!stored || stored.userId !== claims.sub) return undefined;
    if (stored.secretHash.length !== hash.length || !timingSafeEqual(stored.secretHash, hash)) {
      return undefined;
    }
    const verified: VerifiedCredential = {
      userId: stored.userId,
      credentialId: claims.jti,
      roles: stored.roles,
      tenant: stored.tenant,
      // Kept no longer than the token itself is valid, nor its stored row.
      expiresAt: earlier(stored.expiresAt, claims.exp === undefined ? null : claims.exp * 1000),
    };
    this.verified.keep(ticket, key, verified);
    return toIdentity(verified);
  }

  /**
   * The identity behind a session or attachment token this instance has verified before (its
   * signature, expiry and stored row) and that no instance has revoked since: the very same
   * token, by its hash, in `VerifiedCredentials`. Undefined when it is not known; the token
   * must then be checked whole.
   */
  knownIdentity(rawToken: string, tenant: string | undefined): AuthIdentity | undefined {
    const cached = this.verified.get(credentialKey(sha256(rawToken), tenant));
    return cached && toIdentity(cached);
  }

  /**
   * The identity behind a raw session or attachment token, checked as passport-jwt checks it on
   * HTTP requests (signature, algorithm, issuer, audience, expiry) and then by `identify`; for
   * callers outside an HTTP request, such as a WebSocket upgrade. Undefined for a bad token; a
   * tenant the user is not a member of throws 403 as on HTTP.
   */
  async authenticate(
    rawToken: string,
    tenant: string | undefined,
  ): Promise<AuthIdentity | undefined> {
    let claims: TokenClaims;
    try {
      claims = jwt.verify(rawToken, await this.signingKey(), TOKEN_CHECKS) as TokenClaims;
    } catch {
      return undefined;
    }
    if (typeof claims.sub !== 'string' || typeof claims.jti !== 'string') return undefined;
    return this.identify(claims, rawToken, tenant);
  }

  /**
   * A new short session in place of the caller's, which ends; SSO stays SSO, in the same
   * provider session. One unit of work: the new pair is kept only if the old one ends, so a
   * failure leaves the caller with the pair it had and no other.
   */
  @Transactional()
  async renew(userId: string, tokenId: string): Promise<IssuedSession> {
    const origin = await this.origin(tokenId);
    const session = await this.issue(userId, { long: false, ...origin });
    await this.revoke(tokenId);
    return session;
  }

  /** Whether the session is a single sign-on, and of which provider session. */
  origin(tokenId: string): Promise<SessionOrigin> {
    return this.sessions.findOrigin(tokenId);
  }

  /**
   * Ends the session and the attachment token issued with it. The deletion's notice makes every
   * instance forget both and close the change-feed sockets opened with either; this instance
   * forgets them at once, so that its next request does not wait for the notice.
   */
  async revoke(tokenId: string): Promise<void> {
    for (const id of await this.sessions.deleteSession(tokenId)) {
      this.verified.forgetCredential(id);
    }
  }

  /** The caller's unexpired sessions, newest first, the one making the call marked `current`. */
  async listOwn(caller: AuthIdentity): Promise<SessionDto[]> {
    const current = caller.credential.kind === 'session' ? caller.credential.tokenId : undefined;
    return (await this.sessions.findSessionsOf(caller.id)).map((session) => ({
      id: session.id,
      createdAt: session.createdAt.toISOString(),
      expiresAt: session.expiresAt.toISOString(),
      signIn: session.singleSignOn ? 'singleSignOn' : 'password',
      current: session.id === current,
    }));
  }

  /**
   * Ends one of the caller's sessions as logout does (with its attachment token, on every
   * instance, closing the change-feed sockets opened with either); 404 for an id that is not an
   * unexpired session of the caller.
   */
  async revokeOwn(caller: AuthIdentity, sessionId: string): Promise<void> {
    const ended = await this.sessions.deleteOwnSession(caller.id, sessionId);
    if (ended.length === 0) throw new NotFoundException(`session ${sessionId} not found`);
    for (const id of ended) this.verified.forgetCredential(id);
  }

  /**
   * Revokes the sessions (with their attachment tokens) created in the provider's session `sid`
   * for users of `issuer` (and `subject`, when given), or with no `sid` every single sign-on
   * session of that subject: a back-channel logout. Returns the users whose sessions ended.
   */
  async revokeProviderSession(
    issuer: string,
    logout: { sid?: string; subject?: string },
  ): Promise<string[]> {
    const userIds =
      logout.sid !== undefined
        ? await this.sessions.deleteOfProviderSession(issuer, logout.sid, logout.subject)
        : logout.subject !== undefined
          ? await this.sessions.deleteSingleSignOnOf(issuer, logout.subject)
          : [];
    for (const userId of userIds) this.verified.forgetUser(userId);
    return userIds;
  }

  /**
   * Revokes every session and attachment token of the user, except the sessions listed and the
   * attachment tokens issued with them.
   */
  async revokeAllForUser(userId: string, except: string[] = []): Promise<void> {
    await this.sessions.deleteAllForUser(userId, except);
    this.verified.forgetUser(userId);
  }
}
