import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { EntitiesModule } from '../entities/entities.module.js';
import { EntityTypesModule } from '../entity-types/entity-types.module.js';
import { TagsModule } from '../tags/tags.module.js';
import { AccountsModule } from '../accounts/accounts.module.js';
import { DemoSeeder } from './demo-seeder.service.js';

/** Demo mode's account and sample inventory, seeded at start-up; above accounts and entities. */
@Module({
  imports: [AuthModule, AccountsModule, EntitiesModule, EntityTypesModule, TagsModule],
  providers: [DemoSeeder],
})
export class DemoModule {}
