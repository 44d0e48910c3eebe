import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Transactional } from '@nestjs-cls/transactional';
import type { TroveConfig } from '../../platform/config/configuration.js';
import type { GroupRole } from '../auth/group-role.js';
import { GroupsService, oidcSharedGroupKey } from '../groups/groups.service.js';
import { RegistrationService } from '../users/registration.service.js';
import type { UserRecord } from '../users/user.record.js';
import { normaliseEmail, UsersService } from '../users/users.service.js';
import { AccountsService } from './accounts.service.js';
import { higherRole, sharedGroupRole } from './provider-groups.js';

/** Group name of the users single sign-on creates without a shared group, as in Homebox. */
export const OIDC_OWN_GROUP_NAME = 'Home';

/**
 * The role an outside user has in the shared group when nothing maps one: a first single sign-on
 * without a role mapping, or a user SCIM provisions (until their provider groups map one).
 */
export const OUTSIDE_USER_DEFAULT_ROLE: GroupRole = 'user';

/** A user the identity provider knows, coming into Trove. */
export interface OutsideUser {
  email: string;
  name: string;
  /**
   * The provider identity signing in (single sign-on): linked to a local account with the same
   * e-mail address when the rules allow. None for SCIM, which never takes over an account.
   */
  identity?: { issuer: string; subject: string; emailVerified: boolean };
  /** Their role in the shared group (TROVE_OIDC_SHARED_GROUP); without one, a group of their own. */
  sharedRole: GroupRole | undefined;
}

/** Why an outside user cannot come in: their e-mail address belongs to another account. */
export class OutsideUserRefused extends Error {
  constructor(
    message: string,
    /** The account holding the address. */
    readonly holderId: string,
  ) {
    super(message);
  }
}

/**
 * How a user of the identity provider comes into Trove, whether by their first single sign-on or
 * by SCIM provisioning, and what their provider groups grant them (TROVE_OIDC_ROLE_MAPPING):
 * the one place for the e-mail lock, linking by e-mail, the shared group and its default role,
 * and the Trove groups that provider groups name.
 */
@Injectable()
export class OutsideUsersService {
  constructor(
    private readonly users: UsersService,
    private readonly groups: GroupsService,
    private readonly accounts: AccountsService,
    private readonly registration: RegistrationService,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  private get settings(): TroveConfig['oidc'] {
    return this.config.get('oidc', { infer: true });
  }

  /**
   * Brings the outside user in: the account with their e-mail address when they sign in with a
   * provider identity the rules let it be linked to, else a new account without a password, in
   * the shared group with `sharedRole` (the first one in creates and owns it) or, without a
   * shared group, in a group of their own. Holds the e-mail address's lock until the unit of work
   * ends, so two ways in cannot create one address twice. Throws `OutsideUserRefused` when the
   * address belongs to an account it may not take.
   */
  @Transactional()
  async bringIn(outsider: OutsideUser): Promise<UserRecord> {
    const email = normaliseEmail(outsider.email);
    await this.users.lockEmailForCreation(email);
    const existing = await this.users.findByEmail(email);
    if (existing) return this.link(existing, outsider);
    const newUser = {
      name: outsider.name,
      email: outsider.email,
      passwordHash: null,
      oidcIssuer: outsider.identity?.issuer ?? null,
      oidcSubject: outsider.identity?.subject ?? null,
    };
    if (!outsider.sharedRole) {
      return this.registration.createWithOwnGroup(newUser, OIDC_OWN_GROUP_NAME);
    }
    const user = await this.users.insertUser(newUser);
    await this.joinSharedGroup(user.id, outsider.sharedRole);
    return user;
  }

  private async link(existing: UserRecord, outsider: OutsideUser): Promise<UserRecord> {
    const identity = outsider.identity;
    const refuse = (why: string): never => {
      throw new OutsideUserRefused(why, existing.id);
    };
    if (!identity) return refuse(`a user with the e-mail address ${existing.email} already exists`);
    if (existing.oidcSubject !== null || existing.oidcIssuer !== null) {
      refuse(`the e-mail belongs to user ${existing.id}, who signs in with another identity`);
    }
    if (!this.settings.linkByEmail) {
      refuse(`the e-mail belongs to local user ${existing.id} and linking by e-mail is off`);
    }
    if (!identity.emailVerified) {
      refuse(
        `the e-mail belongs to local user ${existing.id} but the provider has not verified it`,
      );
    }
    await this.users.linkOidcIdentity(existing.id, identity.issuer, identity.subject);
    return existing;
  }

  /**
   * Gives the user what their provider groups grant, and takes away what they no longer grant:
   * the role in the shared group (`sharedRole` when the caller decided it, else the highest the
   * mapping gives, else the default role; untouched while the mapping names no shared-group role),
   * membership and role in each Trove group the mapping names (a membership ends when none of their
   * groups grants it any more), and the instance administrator flag (while `admin` is mapped).
   * A membership's end or a role's change reaches every instance at once.
   */
  @Transactional()
  async applyProviderGroups(
    userId: string,
    providerGroups: readonly string[],
    sharedRole?: GroupRole,
  ): Promise<void> {
    const settings = this.settings;
    if (settings.sharedGroup !== '') {
      const mapped = Object.keys(settings.roleMapping).length > 0;
      const role =
        sharedRole ??
        (mapped
          ? (sharedGroupRole(providerGroups, settings.roleMapping) ?? OUTSIDE_USER_DEFAULT_ROLE)
          : undefined);
      if (role) await this.joinSharedGroup(userId, role);
    }
    const granted = new Map<string, GroupRole | undefined>();
    for (const grant of settings.groupGrants) {
      const role = providerGroups.includes(grant.providerGroup) ? grant.role : undefined;
      granted.set(grant.troveGroup, higherRole(granted.get(grant.troveGroup), role));
    }
    for (const [troveGroup, role] of granted) {
      if (role) await this.joinGrantedGroup(troveGroup, userId, role);
      else await this.leaveGrantedGroup(troveGroup, userId);
    }
    if (settings.adminGroups.length > 0) {
      const admin = providerGroups.some((group) => settings.adminGroups.includes(group));
      await this.users.setSuperuser(userId, admin);
    }
  }

  /**
   * Puts the user in the shared group (TROVE_OIDC_SHARED_GROUP) with `role`, creating it on first
   * use with the user as its owner (who stays its owner while they are its only one).
   */
  private async joinSharedGroup(userId: string, role: GroupRole): Promise<void> {
    const group = await this.findOrCreateNamedGroup(this.settings.sharedGroup, userId);
    if (group.joined) await this.groups.applyRole(group.id, userId, role);
    else await this.registration.joinGroup(group.id, userId, role);
    if (group.created) await this.accounts.repairDefaultGroup(userId);
  }

  /**
   * Puts the user in a Trove group the role mapping names with exactly `role`, creating the group
   * on first use.
   */
  private async joinGrantedGroup(name: string, userId: string, role: GroupRole): Promise<void> {
    const group = await this.findOrCreateNamedGroup(name, userId);
    if (group.joined) await this.groups.applyGrantedRole(group.id, userId, role);
    else await this.registration.joinGroup(group.id, userId, role);
    if (group.created) await this.accounts.repairDefaultGroup(userId);
  }

  /**
   * The group known by `name`, created on first use with the user as its owner; `joined` tells
   * whether the user is a member already. The group is found by a key derived from the name
   * (`oidcSharedGroupKey`), never by the group's own name, which its owners may change.
   */
  private async findOrCreateNamedGroup(
    name: string,
    userId: string,
  ): Promise<{ id: string; created: boolean; joined: boolean }> {
    const group = await this.accounts.findOrCreateOidcShared(
      oidcSharedGroupKey(name),
      name,
      userId,
    );
    const joined = group.created || (await this.groups.isMember(group.id, userId));
    return { ...group, joined };
  }

  /** Ends the user's membership of a Trove group the role mapping names, if there is one. */
  private async leaveGrantedGroup(name: string, userId: string): Promise<void> {
    const groupId = await this.groups.findOidcShared(oidcSharedGroupKey(name));
    if (groupId && (await this.groups.removeGrantedMember(groupId, userId))) {
      await this.accounts.repairDefaultGroup(userId);
    }
  }
}
