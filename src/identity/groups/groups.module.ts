import { Module } from '@nestjs/common';
import { AttachmentsModule } from '../../inventory/attachments/attachments.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { CurrenciesModule } from '../currencies/currencies.module.js';
import { GroupInvitationRepository } from './group-invitation.repository.js';
import { GroupInvitationsService } from './group-invitations.service.js';
import { GroupRepository } from './group.repository.js';
import { GroupsService } from './groups.service.js';

/**
 * Groups, their members and invitations. The accounts module builds on this one: it seeds a
 * new group and keeps each member's default group among their groups.
 */
@Module({
  imports: [AttachmentsModule, AuthModule, CurrenciesModule],
  providers: [GroupsService, GroupInvitationsService, GroupRepository, GroupInvitationRepository],
  exports: [GroupsService, GroupInvitationsService],
})
export class GroupsModule {}
