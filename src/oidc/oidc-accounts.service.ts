import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { TroveConfig } from '../config/configuration.js';
import { GroupMembershipRecord } from '../groups/group-membership.record.js';
import { GroupRecord } from '../groups/group.record.js';
import type { GroupRole } from '../groups/group-role.js';
import { GroupsService } from '../groups/groups.service.js';
import { UserRecord } from '../users/user.record.js';
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
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly groups: GroupsService,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  private get settings(): TroveConfig['oidc'] {
    return this.config.get('oidc', { infer: true });
  }

  /** `sharedRole` is the user's role in the shared group, when one is configured. */
  async signIn(identity: OidcIdentity, sharedRole: GroupRole | undefined): Promise<OidcSignedIn> {
    return this.dataSource.transaction(async (manager) => {
      // Two first sign-ins of one identity must not both create a user.
      await lock(manager, `trove:oidc-identity:${identity.issuer} ${identity.subject}`);
      const user =
        (await manager.findOneBy(UserRecord, {
          oidcIssuer: identity.issuer,
          oidcSubject: identity.subject,
        })) ?? (await this.linkOrCreate(manager, identity, sharedRole));
      if (sharedRole) await this.joinSharedGroup(manager, user.id, sharedRole);
      return { id: user.id };
    });
  }

  private async linkOrCreate(
    manager: EntityManager,
    identity: OidcIdentity,
    sharedRole: GroupRole | undefined,
  ): Promise<UserRecord> {
    const email = normaliseEmail(identity.email);
    // Nor may two identities claim one e-mail at once.
    await lock(manager, `trove:oidc-email:${email}`);
    const existing = await manager.findOneBy(UserRecord, { email });
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
      await manager.update(
        UserRecord,
        { id: existing.id },
        { oidcIssuer: identity.issuer, oidcSubject: identity.subject },
      );
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
    if (sharedRole) return this.users.insertUser(manager, newUser);
    return this.users.createWithOwnGroup(manager, newUser, OIDC_OWN_GROUP_NAME);
  }

  /**
   * Puts the user in the shared group with the mapped role, creating the group on first use.
   * The group is found by its `oidcSharedKey` (derived from the setting), never by its name.
   */
  private async joinSharedGroup(
    manager: EntityManager,
    userId: string,
    role: GroupRole,
  ): Promise<void> {
    const name = this.settings.sharedGroup;
    const key = createHash('sha256').update(name).digest('hex').slice(0, 40);
    await lock(manager, `oidc-shared-group:${key}`);
    const found = await manager.findOneBy(GroupRecord, { oidcSharedKey: key });
    if (!found) {
      const group = await this.groups.createOwnedGroup(manager, userId, name, { starter: false });
      await manager.update(GroupRecord, { id: group.id }, { oidcSharedKey: key });
      await this.setRole(manager, group.id, userId, role);
      await this.groups.repairDefaultGroup(manager, userId);
    } else if (await this.groups.isMember(manager, found.id, userId)) {
      await this.setRole(manager, found.id, userId, role);
    } else {
      await this.groups.addMember(manager, found.id, userId, role);
    }
  }

  /** Applies the mapped role, except that the group's last owner is never demoted. */
  private async setRole(
    manager: EntityManager,
    groupId: string,
    userId: string,
    role: GroupRole,
  ): Promise<void> {
    if (role !== 'owner') {
      const current = await manager.findOneBy(GroupMembershipRecord, { groupId, userId });
      const owners = await manager.count(GroupMembershipRecord, {
        where: { groupId, role: 'owner' },
      });
      if (current?.role === 'owner' && owners <= 1) return;
    }
    await manager.update(GroupMembershipRecord, { groupId, userId }, { role });
  }
}

/** A transaction-scoped advisory lock on a name. */
async function lock(manager: EntityManager, name: string): Promise<void> {
  await manager.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [name]);
}
