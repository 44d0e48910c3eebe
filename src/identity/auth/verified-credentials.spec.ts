import type { ConfigService } from '@nestjs/config';
import { describe, expect, it } from 'vitest';
import type { TroveConfig } from '../../platform/config/configuration.js';
import type { Database } from '../../platform/database/database.js';
import type {
  DatabaseNotifications,
  NotificationHandler,
  SubscriptionHandler,
} from '../../platform/database/database-notifications.js';
import {
  CREDENTIALS_CHANNEL,
  credentialKey,
  VerifiedCredentials,
  type VerifiedCredential,
} from './verified-credentials.js';

/** A listening connection the test drives: subscribed or not, and notices delivered at will. */
class FakeNotifications {
  subscribed = false;
  notice: NotificationHandler = () => undefined;
  subscription: SubscriptionHandler = () => undefined;

  listen(channel: string, handler: NotificationHandler, onSubscription: SubscriptionHandler) {
    expect(channel).toBe(CREDENTIALS_CHANNEL);
    this.notice = handler;
    this.subscription = onSubscription;
  }

  isSubscribed(): boolean {
    return this.subscribed;
  }

  setSubscribed(subscribed: boolean): void {
    this.subscribed = subscribed;
    this.subscription(subscribed);
  }
}

/** A unit of work the test opens and commits: work deferred to its commit waits for `commit`. */
class UnitOfWork {
  open = false;
  private deferred: (() => Promise<void>)[] = [];

  async afterCommit(work: () => Promise<void>): Promise<void> {
    if (this.open) this.deferred.push(work);
    else await work();
  }

  async commit(): Promise<void> {
    this.open = false;
    for (const work of this.deferred.splice(0)) await work();
  }
}

const cacheOf = (capacity: number) => {
  const notifications = new FakeNotifications();
  const unitOfWork = new UnitOfWork();
  const config = { get: () => ({ credentialCacheSize: capacity }) };
  const cache = new VerifiedCredentials(
    notifications as unknown as DatabaseNotifications,
    unitOfWork as unknown as Database,
    config as unknown as ConfigService<TroveConfig, true>,
  );
  cache.onModuleInit();
  notifications.setSubscribed(true);
  return { cache, notifications, unitOfWork };
};

const credential = (userId: string, expiresInMs: number | null = 60_000): VerifiedCredential => ({
  userId,
  credentialId: `${userId}-token`,
  roles: ['user'],
  tenant: { groupId: 'group', role: 'owner' },
  expiresAt: expiresInMs === null ? null : new Date(Date.now() + expiresInMs),
});

const keyOf = (name: string, tenant?: string): string => credentialKey(Buffer.from(name), tenant);

describe('VerifiedCredentials', () => {
  it('keeps an answer per credential and tenant, until a notice names its user', () => {
    const { cache, notifications } = cacheOf(10);
    cache.keep(cache.ticket(), keyOf('a'), credential('ada'));
    cache.keep(cache.ticket(), keyOf('a', 'other'), credential('ada'));
    cache.keep(cache.ticket(), keyOf('b'), credential('bob', null));
    expect(cache.get(keyOf('a'))?.userId).toBe('ada');
    expect(cache.get(keyOf('a', 'another'))).toBeUndefined();

    notifications.notice('ada');
    expect(cache.get(keyOf('a'))).toBeUndefined();
    expect(cache.get(keyOf('a', 'other'))).toBeUndefined();
    expect(cache.get(keyOf('b'))?.userId).toBe('bob');
    expect(cache.size).toBe(1);
  });

  it('never answers past the credential’s expiry', () => {
    const { cache } = cacheOf(10);
    cache.keep(cache.ticket(), keyOf('gone'), credential('ada', -1));
    expect(cache.size).toBe(0);
    cache.keep(cache.ticket(), keyOf('soon'), { ...credential('ada'), expiresAt: new Date() });
    expect(cache.get(keyOf('soon'))).toBeUndefined();
  });

  it('drops the least recently used answer beyond its capacity', () => {
    const { cache } = cacheOf(2);
    cache.keep(cache.ticket(), keyOf('a'), credential('ada'));
    cache.keep(cache.ticket(), keyOf('b'), credential('bob'));
    expect(cache.get(keyOf('a'))).toBeDefined();
    cache.keep(cache.ticket(), keyOf('c'), credential('cy'));
    expect(cache.size).toBe(2);
    expect(cache.get(keyOf('b'))).toBeUndefined();
    expect(cache.get(keyOf('a'))).toBeDefined();
    expect(cache.get(keyOf('c'))).toBeDefined();
  });

  it('does not keep an answer loaded while a notice arrived', () => {
    const { cache, notifications } = cacheOf(10);
    const ticket = cache.ticket();
    notifications.notice('someone');
    cache.keep(ticket, keyOf('a'), credential('ada'));
    expect(cache.size).toBe(0);
  });

  it('is bypassed while unsubscribed and emptied when subscribed again', () => {
    const { cache, notifications } = cacheOf(10);
    cache.keep(cache.ticket(), keyOf('a'), credential('ada'));
    const loading = cache.ticket();
    notifications.setSubscribed(false);
    expect(cache.get(keyOf('a'))).toBeUndefined();
    expect(cache.ticket()).toBeUndefined();
    cache.keep(loading, keyOf('b'), credential('bob'));
    cache.keep(undefined, keyOf('b'), credential('bob'));

    notifications.setSubscribed(true);
    expect(cache.size).toBe(0);
    expect(cache.get(keyOf('a'))).toBeUndefined();
    cache.keep(loading, keyOf('b'), credential('bob'));
    expect(cache.size).toBe(0);
  });

  it('forgets again once the revoking unit of work commits, dropping what was kept before', async () => {
    const { cache, unitOfWork } = cacheOf(10);
    cache.keep(cache.ticket(), keyOf('a'), credential('ada'));
    cache.keep(cache.ticket(), keyOf('b'), credential('bob'));
    unitOfWork.open = true;
    cache.forgetUser('ada');
    cache.forgetCredential('bob-token');
    expect(cache.size).toBe(0);
    // Before the commit another request still reads the rows as they were, and keeps them.
    cache.keep(cache.ticket(), keyOf('a'), credential('ada'));
    cache.keep(cache.ticket(), keyOf('b'), credential('bob'));
    expect(cache.get(keyOf('a'))?.userId).toBe('ada');
    await unitOfWork.commit();
    expect(cache.get(keyOf('a'))).toBeUndefined();
    expect(cache.get(keyOf('b'))).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('forgets at once outside a unit of work', () => {
    const { cache } = cacheOf(10);
    cache.keep(cache.ticket(), keyOf('a'), credential('ada'));
    const loading = cache.ticket();
    cache.forgetUser('ada');
    expect(cache.size).toBe(0);
    cache.keep(loading, keyOf('a'), credential('ada'));
    expect(cache.size).toBe(0);
  });

  it('keeps nothing with a capacity of 0', () => {
    const { cache } = cacheOf(0);
    expect(cache.ticket()).toBeUndefined();
    cache.keep({ generation: 0 }, keyOf('a'), credential('ada'));
    expect(cache.get(keyOf('a'))).toBeUndefined();
  });
});
