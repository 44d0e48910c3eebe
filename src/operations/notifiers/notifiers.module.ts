import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../../identity/auth/auth.module.js';
import { OutboundModule } from '../../platform/outbound/outbound.module.js';
import { NotifierDelivery } from './delivery/notifier-delivery.js';
import { NotifierRecord } from './notifier.record.js';
import { NotifierRepository } from './notifier.repository.js';
import { NotifierUrlCipher } from './notifier-url-cipher.js';
import { NotifiersController } from './notifiers.controller.js';
import { NotifiersService } from './notifiers.service.js';

/**
 * Notifiers of a group and the delivery of messages to them; other modules send messages to a
 * group through NotifiersService.notifyGroup.
 */
@Module({
  imports: [TypeOrmModule.forFeature([NotifierRecord]), AuthModule, OutboundModule],
  controllers: [NotifiersController],
  providers: [NotifiersService, NotifierRepository, NotifierUrlCipher, NotifierDelivery],
  exports: [NotifiersService],
})
export class NotifiersModule {}
