import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { CurrenciesModule } from '../currencies/currencies.module.js';
import { GroupLifecycle } from './group-lifecycle.js';
import { GroupInvitationRepository } from './group-invitation.repository.js';
import { GroupInvitationsService } from './group-invitations.service.js';
import { GroupRepository } from './group.repository.js';
import { GroupsService } from './groups.service.js';

/**
 * Groups, their members and invitations, and the group lifecycle the modules above register with
 * (what a new group starts with, which files go with a deleted one). The accounts module builds on
 * this one: it keeps each member's default group among their groups.
 */
@Module({
  imports: [AuthModule, CurrenciesModule],
  providers: [
    GroupsService,
    GroupInvitationsService,
    GroupLifecycle,
    GroupRepository,
    GroupInvitationRepository,
  ],
  exports: [GroupsService, GroupInvitationsService, GroupLifecycle],
})
export class GroupsModule {}
