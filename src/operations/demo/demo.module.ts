import { Module } from '@nestjs/common';
import { AuthModule } from '../../identity/auth/auth.module.js';
import { EntityCoreModule } from '../../inventory/entities/core/entities.module.js';
import { EntityTypesModule } from '../../inventory/entity-types/entity-types.module.js';
import { TagsModule } from '../../inventory/tags/tags.module.js';
import { UsersModule } from '../../identity/users/users.module.js';
import { DemoSeeder } from './demo-seeder.service.js';

/** Demo mode's account and sample inventory, seeded at start-up; above accounts and entities. */
@Module({
  imports: [AuthModule, UsersModule, EntityCoreModule, EntityTypesModule, TagsModule],
  providers: [DemoSeeder],
})
export class DemoModule {}
