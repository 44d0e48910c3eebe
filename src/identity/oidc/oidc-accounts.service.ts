import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Transactional } from '@nestjs-cls/transactional';
import { OutsideUserRefused, OutsideUsersService } from '../accounts/outside-users.service.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import type { GroupRole } from '../auth/group-role.js';
import { ScimGroupsService } from '../scim/scim-groups.service.js';
import type { UserRecord } from '../users/user.record.js';
import { UsersService } from '../users/users.service.js';
import { checkAccess, type OidcIdentity } from './oidc-claims.js';
import { OidcSignInRefused } from './oidc-errors.js';
import type { OidcSignedIn } from './oidc.strategy.js';

/**
 * Turns a provider identity into a Trove user: a returning identity is its user; a new one comes
 * in as every outside user does (`OutsideUsersService`): linked to the local account with the
 * same verified e-mail, or a new user without a password, with a group of their own or in the
 * configured shared group. Each sign-in then applies what the user's provider groups grant.
 */
@Injectable()
export class OidcAccountsService {
  constructor(
    private readonly users: UsersService,
    private readonly outsideUsers: OutsideUsersService,
    private readonly pushedGroups: ScimGroupsService,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  private get settings(): TroveConfig['oidc'] {
    return this.config.get('oidc', { infer: true });
  }

  /**
   * The sign-in rules (`checkAccess`) decide, over the groups of the token and those the provider
   * pushed over SCIM, whether they may come in and their role in the shared group. A disabled
   * user is refused (and nothing they would have been linked to or joined is kept). With
   * provider groups mapped to `admin`, the user is an instance administrator from now on exactly
   * when they are in one of them (Homebox's superuser flag); with provider groups mapped to Trove
   * groups, they are members of exactly the groups theirs grant.
   */
  @Transactional()
  async signIn(signingIn: OidcIdentity): Promise<OidcSignedIn> {
    // Two first sign-ins of one identity must not both create a user.
    await this.users.lockForCreation(
      `trove:oidc-identity:${signingIn.issuer} ${signingIn.subject}`,
    );
    const known = await this.users.findByOidcIdentity(signingIn.issuer, signingIn.subject);
    // The provider's groups are those its token lists and those it pushed over SCIM.
    const pushed = known ? await this.pushedGroups.groupNamesOf(known.id) : [];
    const identity = { ...signingIn, groups: [...new Set([...signingIn.groups, ...pushed])] };
    const sharedRole = checkAccess(identity, this.settings);
    const user = known ?? (await this.bringIn(identity, sharedRole));
    if (user.disabledAt) {
      throw new OidcSignInRefused(`user ${user.id} is disabled`, 'account_disabled');
    }
    await this.outsideUsers.applyProviderGroups(user.id, identity.groups, sharedRole);
    return { id: user.id };
  }

  private async bringIn(
    identity: OidcIdentity,
    sharedRole: GroupRole | undefined,
  ): Promise<UserRecord> {
    try {
      return await this.outsideUsers.bringIn({
        email: identity.email,
        name: identity.name,
        identity: {
          issuer: identity.issuer,
          subject: identity.subject,
          emailVerified: identity.emailVerified,
        },
        sharedRole,
      });
    } catch (error) {
      if (error instanceof OutsideUserRefused) throw new OidcSignInRefused(error.message);
      throw error;
    }
  }
}
