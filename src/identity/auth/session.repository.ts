import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database.js';
import type { AuthRole } from './auth-role.js';
import { AuthRoleRecord } from './auth-role.record.js';
import { AuthTokenRecord } from './auth-token.record.js';
import {
  DELETE_EXPIRED_TOKENS,
  DELETE_OWN_SESSION_PAIR,
  DELETE_PROVIDER_SESSION_TOKENS,
  DELETE_SESSION_PAIR,
  DELETE_SINGLE_SIGN_ON_TOKENS,
  DELETE_USER_TOKENS,
  USER_SESSIONS,
} from './auth.sql.js';

export interface StoredToken {
  id: string;
  userId: string;
  tokenHash: Buffer;
  expiresAt: Date;
  role: AuthRole;
  singleSignOn: boolean;
  /** The provider's session id (`sid`) of a single sign-on session, when it sent one. */
  providerSessionId?: string | null;
  /** An attachment token's session, which it ends with; null (or absent) for a session. */
  sessionId?: string | null;
}

/** Where a session came from: a single sign-on, and in which provider session. */
export interface SessionOrigin {
  singleSignOn: boolean;
  providerSessionId: string | null;
}

/** A session as its user sees it in their list. */
export interface StoredSession {
  id: string;
  createdAt: Date;
  expiresAt: Date;
  singleSignOn: boolean;
}

/** The only code that writes the `auth_tokens` and `auth_roles` tables. */
@Injectable()
export class SessionRepository {
  constructor(private readonly db: Database) {}

  /** Stores the tokens, each with its role, together. */
  async insert(tokens: StoredToken[]): Promise<void> {
    await this.db.transaction(async () => {
      await this.db
        .repository(AuthTokenRecord)
        .insert(tokens.map(({ role: _role, ...token }) => token));
      await this.db
        .repository(AuthRoleRecord)
        .insert(tokens.map((token) => ({ tokenId: token.id, role: token.role })));
    });
  }

  async findOrigin(id: string): Promise<SessionOrigin> {
    const token = await this.db.repository(AuthTokenRecord).findOne({
      where: { id },
      select: { id: true, singleSignOn: true, providerSessionId: true },
    });
    return {
      singleSignOn: token?.singleSignOn ?? false,
      providerSessionId: token?.providerSessionId ?? null,
    };
  }

  /** The user's unexpired sessions (without their attachment tokens), newest first. */
  async findSessionsOf(userId: string): Promise<StoredSession[]> {
    const rows = await this.db.query<{
      id: string;
      created_at: Date;
      expires_at: Date;
      single_sign_on: boolean;
    }>(USER_SESSIONS, [userId]);
    return rows.map((row) => ({
      id: row.id,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      singleSignOn: row.single_sign_on,
    }));
  }

  /**
   * Deletes the user's unexpired session and the attachment token issued with it, in one
   * statement; returns the ids of the rows that went (none when it is not the user's session).
   */
  async deleteOwnSession(userId: string, id: string): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(DELETE_OWN_SESSION_PAIR, [id, userId]);
    return rows.map((row) => row.id);
  }

  /**
   * Deletes the session and the attachment token issued with it, in one statement; returns the
   * ids of the rows that went.
   */
  async deleteSession(id: string): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(DELETE_SESSION_PAIR, [id]);
    return rows.map((row) => row.id);
  }

  /**
   * Deletes every session and attachment token of the user, except the sessions listed and
   * their attachment tokens.
   */
  async deleteAllForUser(userId: string, exceptSessions: string[]): Promise<void> {
    await this.db.query(DELETE_USER_TOKENS, [userId, exceptSessions]);
  }

  /**
   * Deletes the tokens created in provider session `sid` of users signing in with `issuer` (and
   * `subject`, when given); returns the ids of their users.
   */
  async deleteOfProviderSession(
    issuer: string,
    sid: string,
    subject: string | undefined,
  ): Promise<string[]> {
    return userIdsOf(
      await this.db.query<{ user_id: string }>(DELETE_PROVIDER_SESSION_TOKENS, [
        sid,
        issuer,
        subject ?? null,
      ]),
    );
  }

  /** Deletes every single sign-on token of the user with this provider identity; their ids. */
  async deleteSingleSignOnOf(issuer: string, subject: string): Promise<string[]> {
    return userIdsOf(
      await this.db.query<{ user_id: string }>(DELETE_SINGLE_SIGN_ON_TOKENS, [issuer, subject]),
    );
  }

  /** Deletes the expired tokens; returns how many went. */
  async deleteExpired(): Promise<number> {
    return this.db.execute(DELETE_EXPIRED_TOKENS);
  }
}

/** The distinct users of the rows a DELETE … RETURNING user_id answered. */
const userIdsOf = (rows: { user_id: string }[]): string[] => [
  ...new Set(rows.map((row) => row.user_id)),
];
