import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EntityCoreModule } from '../entities/core/entities.module.js';
import { GroupsModule } from '../../identity/groups/groups.module.js';
import { CheckoutRecord } from './checkout.record.js';
import { CheckoutRepository } from './checkout.repository.js';
import { CheckoutsController, EntityCheckoutsController } from './checkouts.controller.js';
import { CheckoutsService } from './checkouts.service.js';

/** Check-outs of entities to members or outside borrowers, and their returns. */
@Module({
  imports: [TypeOrmModule.forFeature([CheckoutRecord]), EntityCoreModule, GroupsModule],
  controllers: [EntityCheckoutsController, CheckoutsController],
  providers: [CheckoutsService, CheckoutRepository],
  exports: [CheckoutsService],
})
export class CheckoutsModule {}
