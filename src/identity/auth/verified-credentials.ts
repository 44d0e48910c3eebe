import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { Database } from '../../platform/database/database.js';
import { DatabaseNotifications } from '../../platform/database/database-notifications.js';
import type { AuthRole } from './auth-role.js';
import type { Tenant } from './auth-user.js';

/**
 * Channel on which the database announces (by triggers, in the changing transaction) the id of
 * a user whose credentials may have ended or changed: a session, attachment token or API key
 * deleted or changed, the user deleted or changed, a membership added, changed or removed.
 */
export const CREDENTIALS_CHANNEL = 'trove_credentials';

/** What a credential check found in the database, for a token presented for one tenant. */
export interface VerifiedCredential {
  userId: string;
  /** The stored token or API key row. */
  credentialId: string;
  roles: AuthRole[];
  tenant: Tenant | null;
  /** The credential's own expiry (null: an API key that never expires). */
  expiresAt: Date | null;
  /** API keys: when `last_used_at` was last written by this instance. */
  touchedAt?: number;
}

/** Taken before the database is asked; a credential is kept only if nothing was missed since. */
export interface VerificationTicket {
  readonly generation: number;
}

/**
 * The instance's cache of verified credentials, so that an authenticated request costs one round
 * trip (its own statement) rather than two. Keyed by the credential's hash and the requested
 * tenant; bounded (least recently used go first) and never kept past the credential's expiry.
 *
 * Entries are dropped when the database announces a change to their user on
 * `CREDENTIALS_CHANNEL`, which its triggers do in the changing transaction, so every instance
 * hears of a revocation when it commits. While the channel is not subscribed (start-up, a lost
 * connection, before the reconnect's LISTEN) nothing is read from or kept in the cache, and it
 * is emptied each time the channel is subscribed again, since notices may have been missed.
 * A credential loaded while a notice arrived is not kept (`ticket()` / `keep()`).
 *
 * The instance that revokes forgets at once and again once its unit of work has committed: until
 * the commit, a request verifying the same credential still reads the row as it was, and may keep
 * it; the second forgetting, before the revoking request answers, drops what such a request kept.
 */
@Injectable()
export class VerifiedCredentials implements OnModuleInit {
  private readonly capacity: number;
  /** In least recently used order: a hit moves its entry to the end. */
  private readonly entries = new Map<string, VerifiedCredential>();
  private readonly keysByUser = new Map<string, Set<string>>();
  /** Bumped by every notice and every change of subscription. */
  private generation = 0;

  constructor(
    private readonly notifications: DatabaseNotifications,
    private readonly db: Database,
    config: ConfigService<TroveConfig, true>,
  ) {
    this.capacity = config.get('auth', { infer: true }).credentialCacheSize;
  }

  onModuleInit(): void {
    if (this.capacity === 0) return;
    this.notifications.listen(
      CREDENTIALS_CHANNEL,
      (userId) => this.dropUser(userId),
      () => this.clear(),
    );
  }

  /** The cached credential for `key`, if the cache may be trusted now and it has not expired. */
  get(key: string): VerifiedCredential | undefined {
    if (!this.usable()) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt !== null && entry.expiresAt.getTime() <= Date.now()) {
      this.unindex(key, entry.userId);
      return undefined;
    }
    this.entries.set(key, entry);
    return entry;
  }

  /** To take before loading a credential, and to hand to `keep` with what was loaded. */
  ticket(): VerificationTicket | undefined {
    return this.usable() ? { generation: this.generation } : undefined;
  }

  /**
   * Keeps a loaded credential, unless the cache could not be trusted when the ticket was taken or a
   * notice (or a change of subscription) came since: the credential may predate a revocation whose
   * notice is already spent.
   */
  keep(ticket: VerificationTicket | undefined, key: string, entry: VerifiedCredential): void {
    if (!ticket || ticket.generation !== this.generation || !this.usable()) return;
    if (entry.expiresAt !== null && entry.expiresAt.getTime() <= Date.now()) return;
    const previous = this.entries.get(key);
    if (previous) this.unindex(key, previous.userId);
    this.entries.delete(key);
    while (this.entries.size >= this.capacity) {
      const [oldest, old] = this.entries.entries().next().value as [string, VerifiedCredential];
      this.entries.delete(oldest);
      this.unindex(oldest, old.userId);
    }
    this.entries.set(key, entry);
    let keys = this.keysByUser.get(entry.userId);
    if (!keys) this.keysByUser.set(entry.userId, (keys = new Set()));
    keys.add(key);
  }

  /**
   * Drops every cached credential of the user. The database's notice does so on every instance once
   * the change commits; the instance that makes the change calls this too, so that its own next
   * request does not wait for the notice: now, and again after the open unit of work commits.
   */
  forgetUser(userId: string): void {
    this.dropUser(userId);
    void this.db.afterCommit(() => Promise.resolve(this.dropUser(userId)));
  }

  /** Drops the cached credentials of one token or API key (see `forgetUser`). */
  forgetCredential(credentialId: string): void {
    this.dropCredential(credentialId);
    void this.db.afterCommit(() => Promise.resolve(this.dropCredential(credentialId)));
  }

  /** How many credentials are cached. */
  get size(): number {
    return this.entries.size;
  }

  private dropUser(userId: string): void {
    this.generation += 1;
    for (const key of this.keysByUser.get(userId) ?? []) this.entries.delete(key);
    this.keysByUser.delete(userId);
  }

  private dropCredential(credentialId: string): void {
    this.generation += 1;
    for (const [key, entry] of this.entries) {
      if (entry.credentialId !== credentialId) continue;
      this.entries.delete(key);
      this.unindex(key, entry.userId);
    }
  }

  private clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.keysByUser.clear();
  }

  private usable(): boolean {
    return this.capacity > 0 && this.notifications.isSubscribed(CREDENTIALS_CHANNEL);
  }

  private unindex(key: string, userId: string): void {
    const keys = this.keysByUser.get(userId);
    if (!keys) return;
    keys.delete(key);
    if (keys.size === 0) this.keysByUser.delete(userId);
  }
}

/** The cache key of a credential hash presented for a tenant (undefined: the default group). */
export const credentialKey = (hash: Buffer, tenant: string | undefined): string =>
  `${hash.toString('base64')}/${tenant ?? ''}`;
