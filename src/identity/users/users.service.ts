import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Injectable,
  NotFoundException,
  UnauthorizedException,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Transactional } from '@nestjs-cls/transactional';
import { ApiKeysService } from '../auth/api-keys.service.js';
import type { AuthIdentity } from '../auth/auth-user.js';
import { PasswordsService } from '../auth/passwords.service.js';
import { SessionsService } from '../auth/sessions.service.js';
import { VerifiedCredentials } from '../auth/verified-credentials.js';
import { ValidationFailedException } from '../../platform/errors/validation-failed.exception.js';
import { nestsDeeperThan } from '../../platform/http/validation/json-depth.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { GroupsService } from '../groups/groups.service.js';
import type { ChangePasswordDto, UpdateSelfDto, UserDto } from './dto/user.dto.js';
import { toUserDto } from './user.mapper.js';
import type { UserRecord } from './user.record.js';
import { UserRepository, type UserListing, type UserSummary } from './user.repository.js';
import { ChangeEvents } from '../../platform/change-events/change-events.service.js';

/** The client settings object: at most 64 KiB as JSON, nesting at most 16 levels. */
export const SETTINGS_MAX_BYTES = 64 * 1024;
export const SETTINGS_MAX_DEPTH = 16;
export const LOCAL_LOGIN_DISABLED = 'local login is not enabled';
export const ACCOUNT_DISABLED = 'this account is disabled; ask your administrator';

/** Refuses a disabled account (403), wherever it tries to sign in or recover access. */
export class AccountDisabledException extends ForbiddenException {
  constructor() {
    super(ACCOUNT_DISABLED);
  }
}

/** E-mail addresses are stored trimmed and lower-cased, so uniqueness ignores case. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

export interface NewUser {
  name: string;
  email: string;
  passwordHash: string | null;
  oidcIssuer?: string | null;
  oidcSubject?: string | null;
}

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UserRepository,
    private readonly passwords: PasswordsService,
    private readonly sessions: SessionsService,
    private readonly apiKeys: ApiKeysService,
    private readonly verified: VerifiedCredentials,
    private readonly groups: GroupsService,
    private readonly config: ConfigService<TroveConfig, true>,
    private readonly changes: ChangeEvents,
  ) {}

  private get options(): TroveConfig['options'] {
    return this.config.get('options', { infer: true });
  }

  async insertUser(newUser: NewUser): Promise<UserRecord> {
    const email = normaliseEmail(newUser.email);
    if (await this.users.existsByEmail(email)) {
      throw new ConflictException('a user with this e-mail address already exists');
    }
    return this.users.insert({
      name: newUser.name,
      email,
      passwordHash: newUser.passwordHash,
      isSuperuser: false,
      activatedOn: new Date(),
      defaultGroupId: null,
      oidcIssuer: newUser.oidcIssuer ?? null,
      oidcSubject: newUser.oidcSubject ?? null,
      settings: null,
    });
  }

  /**
   * Checks an e-mail and password. An unknown e-mail and a wrong password cost the same time
   * and give the same answer; only the right password of a disabled account learns that it is.
   */
  async verifyCredentials(username: string, password: string): Promise<UserRecord> {
    const user = await this.users.findByEmail(normaliseEmail(username));
    const valid = await this.passwords.verify(user?.passwordHash ?? null, password);
    if (!user || !valid) throw new UnauthorizedException('unauthorized');
    if (user.disabledAt) throw new AccountDisabledException();
    if (user.passwordHash && this.passwords.needsRehash(user.passwordHash)) {
      await this.users.setPasswordHash(user.id, await this.passwords.hash(password));
    }
    return user;
  }

  async getSelf(caller: AuthIdentity): Promise<UserDto> {
    const user = await this.findOrFail(caller.id);
    return toUserDto(user, await this.groupIdsOf(caller.id));
  }

  async updateSelf(caller: AuthIdentity, dto: UpdateSelfDto): Promise<UserDto> {
    const user = await this.updateAccount(caller.id, dto);
    return toUserDto(user, await this.groupIdsOf(caller.id));
  }

  /**
   * Changes the user's name or e-mail address (409 when another user has it) and tells the
   * members of their groups.
   */
  async updateAccount(
    userId: string,
    change: { name?: string; email?: string },
  ): Promise<UserRecord> {
    const user = await this.findOrFail(userId);
    if (change.name !== undefined) user.name = change.name;
    if (change.email !== undefined) {
      const email = normaliseEmail(change.email);
      if (email !== user.email && (await this.users.existsByEmail(email))) {
        throw new ConflictException('a user with this e-mail address already exists');
      }
      user.email = email;
    }
    await this.users.save(user);
    await this.announce(await this.groupIdsOf(userId));
    return user;
  }

  async deleteSelf(caller: AuthIdentity): Promise<void> {
    if (this.options.demo) throw new ForbiddenException('not allowed in demo mode');
    await this.deleteAccount(caller.id);
  }

  /**
   * Deletes the account with its sessions, API keys and memberships; what it changed stays,
   * attributed to it by id.
   */
  async deleteAccount(userId: string): Promise<void> {
    const groupIds = await this.groupIdsOf(userId);
    await this.users.delete(userId);
    this.verified.forgetUser(userId);
    await this.announce(groupIds);
  }

  /**
   * Disables the account (or enables it again). Disabling ends every session, attachment token
   * and API key of the user on every instance at once (the database tells each instance, which
   * also closes their change-feed sockets); while disabled, the user cannot sign in, reset a
   * password or use any credential. Their history stays theirs. Owners of their groups see the
   * change in the member list.
   */
  @Transactional()
  async setDisabled(userId: string, disabled: boolean): Promise<void> {
    if (!(await this.users.setDisabled(userId, disabled))) return;
    if (disabled) {
      await this.sessions.revokeAllForUser(userId);
      await this.apiKeys.revokeAllForUser(userId);
    }
    this.verified.forgetUser(userId);
    await this.announce(await this.groupIdsOf(userId));
  }

  async getSettings(caller: AuthIdentity): Promise<Record<string, unknown> | null> {
    return (await this.findOrFail(caller.id)).settings;
  }

  async putSettings(caller: AuthIdentity, settings: unknown): Promise<Record<string, unknown>> {
    if (settings === null || typeof settings !== 'object' || Array.isArray(settings)) {
      throw new ValidationFailedException({ settings: 'settings must be a JSON object' });
    }
    if (nestsDeeperThan(settings, SETTINGS_MAX_DEPTH)) {
      throw ValidationFailedException.forField(
        'settings',
        `settings nest deeper than ${SETTINGS_MAX_DEPTH} levels`,
      );
    }
    if (Buffer.byteLength(JSON.stringify(settings)) > SETTINGS_MAX_BYTES) {
      throw ValidationFailedException.forField(
        'settings',
        `settings exceed the limit of ${SETTINGS_MAX_BYTES} bytes`,
      );
    }
    const value = settings as Record<string, unknown>;
    await this.users.setSettings(caller.id, value);
    await this.announce(await this.groupIdsOf(caller.id));
    return value;
  }

  /** Changes the password and revokes every other session of the user. */
  async changePassword(caller: AuthIdentity, dto: ChangePasswordDto): Promise<void> {
    if (this.options.demo) throw new ForbiddenException('not allowed in demo mode');
    const user = await this.findOrFail(caller.id);
    if (!(await this.passwords.verify(user.passwordHash, dto.current))) {
      throw new ForbiddenException('current password is incorrect');
    }
    if (dto.current === dto.new) {
      throw new BadRequestException('the new password must differ from the current one');
    }
    const passwordHash = await this.passwords.hash(dto.new);
    await this.users.setPasswordHash(user.id, passwordHash);
    const keep = caller.credential.kind === 'session' ? [caller.credential.tokenId] : [];
    await this.sessions.revokeAllForUser(user.id, keep);
  }

  /** Sets or clears the user's superuser flag (an instance administrator by their provider). */
  async setSuperuser(userId: string, isSuperuser: boolean): Promise<void> {
    await this.users.setSuperuser(userId, isSuperuser);
  }

  /** Stores a new password hash for the user (sessions are the caller's to revoke). */
  async setPasswordHash(userId: string, passwordHash: string): Promise<void> {
    await this.users.setPasswordHash(userId, passwordHash);
  }

  /**
   * `user.mutation` to each group of the user: their sockets follow one group each, and the
   * other members see the user's name and e-mail address.
   */
  private async announce(groupIds: string[]): Promise<void> {
    for (const groupId of groupIds) await this.changes.publish(groupId, 'user.mutation');
  }

  private async findOrFail(id: string): Promise<UserRecord> {
    const user = await this.users.findById(id);
    if (!user) throw new NotFoundException(`user ${id} not found`);
    return user;
  }

  private async groupIdsOf(userId: string): Promise<string[]> {
    return this.groups.groupIdsOf(userId);
  }

  /**
   * Makes `groupId` the user's default group (one of their groups). Like every change of the group
   * a credential reaches, it makes this instance forget the user's verified credentials.
   */
  async setDefaultGroup(userId: string, groupId: string): Promise<void> {
    await this.users.setDefaultGroup(userId, groupId);
    this.verified.forgetUser(userId);
  }

  /** Makes `groupId` the user's default group if they have none. */
  async setDefaultGroupIfNone(userId: string, groupId: string): Promise<void> {
    await this.users.setDefaultGroupIfNone(userId, groupId);
    this.verified.forgetUser(userId);
  }

  /** Points the user's default group at the first of `groupIds` unless it is one of them. */
  async keepDefaultGroupAmong(userId: string, groupIds: string[]): Promise<void> {
    await this.users.keepDefaultGroupAmong(userId, groupIds);
    this.verified.forgetUser(userId);
  }

  /**
   * Whether a user is an instance administrator: their e-mail address is among
   * TROVE_ADMIN_EMAILS, or their provider's groups made them one at their last single sign-on
   * (`isSuperuser`, Homebox's superuser flag).
   */
  isInstanceAdmin(user: { email: string; isSuperuser: boolean }): boolean {
    const admins = this.config.get('options', { infer: true }).adminEmails;
    return user.isSuperuser || admins.includes(user.email.toLowerCase());
  }

  /**
   * A page of every user of the instance, by name (an instance administrator's list): those whose
   * name or e-mail address contains `search` when given.
   */
  async listAll(
    search: string | undefined,
    page: number,
    pageSize: number,
  ): Promise<{ items: UserListing[]; total: number }> {
    return this.users.findPage(search, page, pageSize);
  }

  /** The id, name, e-mail and disabled state of these users, by name (then id). */
  async summariesOf(ids: string[]): Promise<UserSummary[]> {
    return ids.length === 0 ? [] : this.users.summaries(ids);
  }

  /** The user with this id, if any. */
  async findById(id: string): Promise<UserRecord | null> {
    return this.users.findById(id);
  }

  /** The user signing in with this provider identity, if any. */
  async findByOidcIdentity(issuer: string, subject: string): Promise<UserRecord | null> {
    return this.users.findByOidcIdentity(issuer, subject);
  }

  /** The user with this e-mail address (any case), if any. */
  async findByEmail(email: string): Promise<UserRecord | null> {
    return this.users.findByEmail(normaliseEmail(email));
  }

  /** Links a provider identity to a user. */
  async linkOidcIdentity(userId: string, issuer: string, subject: string): Promise<void> {
    await this.users.setOidcIdentity(userId, issuer, subject);
  }

  /**
   * Serialises the creation of users around `name` (an identity or an e-mail address) until
   * the unit of work ends.
   */
  async lockForCreation(name: string): Promise<void> {
    await this.users.lock(name);
  }

  /**
   * Serialises the creation of users with this e-mail address until the unit of work ends:
   * whoever brings an outside user in (a first single sign-on, SCIM) takes it, so that no two
   * of them create the address twice.
   */
  async lockEmailForCreation(email: string): Promise<void> {
    await this.users.lock(`trove:email:${normaliseEmail(email)}`);
  }
}
