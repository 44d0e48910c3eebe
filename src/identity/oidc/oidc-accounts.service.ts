import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Transactional } from '@nestjs-cls/transactional';
import { AccountsService } from '../accounts/accounts.service.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import type { GroupRole } from '../auth/group-role.js';
import { GroupsService, oidcSharedGroupKey } from '../groups/groups.service.js';
import type { UserRecord } from '../users/user.record.js';
import { normaliseEmail, UsersService } from '../users/users.service.js';
import type { OidcIdentity } from './oidc-claims.js';
import { OidcSignInRefused } from './oidc-errors.js';
import type { OidcSignedIn } from './oidc.strategy.js';

/** Group name of the users created by single sign-on, as in Homebox. */
export const OIDC_OWN_GROUP_NAME = 'Home';

/**
 * Turns a provider identity into a Trove user: a returning identity is its user; a new one is
 * linked to the local account with the same verified e-mail, or becomes a new user without a
 * password, with a group of their own or in the configured shared group.
 */
@Injectable()
export class OidcAccountsService {
  constructor(
    private readonly users: UsersService,
    private readonly groups: GroupsService,
    private readonly accounts: AccountsService,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  private get settings(): TroveConfig['oidc'] {
    return this.config.get('oidc', { infer: true });
  }

  /**
   * `sharedRole` is the user's role in the shared group, when one is configured. A disabled
   * user is refused (and nothing they would have been linked to or joined is kept). With
   * provider groups mapped to `admin`, the user is an instance administrator from now on exactly
   * when they are in one of them (Homebox's superuser flag).
   */
  @Transactional()
  async signIn(identity: OidcIdentity, sharedRole: GroupRole | undefined): Promise<OidcSignedIn> {
    // Two first sign-ins of one identity must not both create a user.
    await this.users.lockForCreation(`trove:oidc-identity:${identity.issuer} ${identity.subject}`);
    const user =
      (await this.users.findByOidcIdentity(identity.issuer, identity.subject)) ??
      (await this.linkOrCreate(identity, sharedRole));
    if (user.disabledAt) {
      throw new OidcSignInRefused(`user ${user.id} is disabled`, 'account_disabled');
    }
    if (sharedRole) await this.joinSharedGroup(user.id, sharedRole);
    const adminGroups = this.settings.adminGroups;
    if (adminGroups.length > 0) {
      const admin = identity.groups.some((group) => adminGroups.includes(group));
      await this.users.setSuperuser(user.id, admin);
    }
    return { id: user.id };
  }

  private async linkOrCreate(
    identity: OidcIdentity,
    sharedRole: GroupRole | undefined,
  ): Promise<UserRecord> {
    const email = normaliseEmail(identity.email);
    // Nor may two identities claim one e-mail at once.
    await this.users.lockEmailForCreation(email);
    const existing = await this.users.findByEmail(email);
    if (existing) {
      if (existing.oidcSubject !== null || existing.oidcIssuer !== null) {
        throw new OidcSignInRefused(
          `the e-mail belongs to user ${existing.id}, who signs in with another identity`,
        );
      }
      if (!this.settings.linkByEmail) {
        throw new OidcSignInRefused(
          `the e-mail belongs to local user ${existing.id} and linking by e-mail is off`,
        );
      }
      if (!identity.emailVerified) {
        throw new OidcSignInRefused(
          `the e-mail belongs to local user ${existing.id} but the provider has not verified it`,
        );
      }
      await this.users.linkOidcIdentity(existing.id, identity.issuer, identity.subject);
      return existing;
    }
    const newUser = {
      name: identity.name,
      email: identity.email,
      passwordHash: null,
      oidcIssuer: identity.issuer,
      oidcSubject: identity.subject,
    };
    // With a shared group the user joins it (below) and gets no group of their own.
    if (sharedRole) return this.users.insertUser(newUser);
    return this.accounts.createWithOwnGroup(newUser, OIDC_OWN_GROUP_NAME);
  }

  /**
   * Puts the user in the shared group with the mapped role, creating the group on first use.
   * The group is found by its `oidcSharedKey` (derived from the setting), never by its name.
   */
  private async joinSharedGroup(userId: string, role: GroupRole): Promise<void> {
    const name = this.settings.sharedGroup;
    const group = await this.accounts.findOrCreateOidcShared(
      oidcSharedGroupKey(name),
      name,
      userId,
    );
    if (group.created) {
      await this.groups.applyRole(group.id, userId, role);
      await this.accounts.repairDefaultGroup(userId);
    } else if (await this.groups.isMember(group.id, userId)) {
      await this.groups.applyRole(group.id, userId, role);
    } else {
      await this.accounts.addMember(group.id, userId, role);
    }
  }
}
