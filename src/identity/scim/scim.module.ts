import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module.js';
import { GroupsModule } from '../groups/groups.module.js';
import { UsersModule } from '../users/users.module.js';
import { ScimBodyInterceptor } from './scim-body.interceptor.js';
import { ScimErrorFilter } from './scim-error.filter.js';
import { ScimDiscoveryService } from './scim-discovery.service.js';
import { ScimGroupRepository } from './scim-group.repository.js';
import { ScimGroupsService } from './scim-groups.service.js';
import { ScimIdentityRepository } from './scim-identity.repository.js';
import { ScimTokenGuard } from './scim-token.guard.js';
import { ScimUsersService } from './scim-users.service.js';
import { ScimController } from './scim.controller.js';

/**
 * SCIM 2.0 provisioning under `/scim/v2` (on while TROVE_SCIM_TOKEN is set): the identity
 * provider creates, changes, disables and deletes the users of the shared single sign-on group,
 * and pushes groups whose members get what TROVE_OIDC_ROLE_MAPPING maps the groups to.
 * It acts across users and groups, above both.
 */
@Module({
  imports: [UsersModule, GroupsModule, AccountsModule],
  controllers: [ScimController],
  providers: [
    ScimDiscoveryService,
    ScimUsersService,
    ScimGroupsService,
    ScimIdentityRepository,
    ScimGroupRepository,
    ScimTokenGuard,
    ScimBodyInterceptor,
    ScimErrorFilter,
  ],
  exports: [ScimGroupsService],
})
export class ScimModule {}
