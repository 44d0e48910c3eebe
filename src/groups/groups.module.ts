import { Module, forwardRef } from '@nestjs/common';
import { AttachmentsModule } from '../attachments/attachments.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { CurrenciesModule } from '../currencies/currencies.module.js';
import { EntitiesModule } from '../entities/entities.module.js';
import { EntityTypesModule } from '../entity-types/entity-types.module.js';
import { TagsModule } from '../tags/tags.module.js';
import { UsersModule } from '../users/users.module.js';
import { GroupInvitationRepository } from './group-invitation.repository.js';
import { GroupInvitationsService } from './group-invitations.service.js';
import { GroupSeeder } from './group-seed.js';
import { GroupRepository } from './group.repository.js';
import { GroupsController } from './groups.controller.js';
import { GroupsService } from './groups.service.js';

/**
 * Groups, their members and invitations. A new group is seeded by the modules whose rows it
 * starts with; the users module (a member's default group) builds on this one in turn.
 */
@Module({
  imports: [
    AttachmentsModule,
    AuthModule,
    CurrenciesModule,
    EntityTypesModule,
    EntitiesModule,
    TagsModule,
    forwardRef(() => UsersModule),
  ],
  controllers: [GroupsController],
  providers: [
    GroupsService,
    GroupInvitationsService,
    GroupSeeder,
    GroupRepository,
    GroupInvitationRepository,
  ],
  exports: [GroupsService, GroupInvitationsService],
})
export class GroupsModule {}
