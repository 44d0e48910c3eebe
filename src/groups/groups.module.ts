import { Module } from '@nestjs/common';
import { CurrenciesModule } from '../currencies/currencies.module.js';
import { GroupInvitationsService } from './group-invitations.service.js';
import { GroupsController } from './groups.controller.js';
import { GroupsService } from './groups.service.js';

/** Groups, their members and invitations. */
@Module({
  imports: [CurrenciesModule],
  controllers: [GroupsController],
  providers: [GroupsService, GroupInvitationsService],
  exports: [GroupsService, GroupInvitationsService],
})
export class GroupsModule {}
