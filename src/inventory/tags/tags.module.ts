import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GroupsModule } from '../../identity/groups/groups.module.js';
import { TagRecord } from './tag.record.js';
import { TagRepository } from './tag.repository.js';
import { TagsController } from './tags.controller.js';
import { TagsService } from './tags.service.js';

/** Nested tags; other modules check and expand tag ids through TagsService. */
@Module({
  imports: [TypeOrmModule.forFeature([TagRecord]), GroupsModule],
  controllers: [TagsController],
  providers: [TagsService, TagRepository],
  exports: [TagsService],
})
export class TagsModule {}
