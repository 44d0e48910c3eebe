import { Injectable } from '@nestjs/common';
import { EntitiesService } from '../../inventory/entities/core/entities.service.js';
import { EntityTypesService } from '../../inventory/entity-types/entity-types.service.js';
import { TagsService } from '../../inventory/tags/tags.service.js';

/**
 * What a new group starts with: the entity types "Item" and "Location" always, and with
 * `starter` the locations and tags a new Homebox collection gets. Each module seeds its own
 * rows, in the unit of work of the caller.
 */
@Injectable()
export class GroupSeeder {
  constructor(
    private readonly entityTypes: EntityTypesService,
    private readonly entities: EntitiesService,
    private readonly tags: TagsService,
  ) {}

  async seed(groupId: string, options: { starter: boolean }): Promise<void> {
    const { locationTypeId } = await this.entityTypes.seed(groupId);
    if (!options.starter) return;
    await this.entities.seedLocations(groupId, locationTypeId);
    await this.tags.seed(groupId);
  }
}
