import { Module } from '@nestjs/common';

/** Notifiers of a group. */
@Module({})
export class NotifiersModule {}
