import type { EntityManager } from 'typeorm';
import { EntityRecord } from '../entities/entity.record.js';
import { EntityTypeRecord } from '../entity-types/entity-type.record.js';
import { TagRecord } from '../tags/tag.record.js';

const STARTER_LOCATIONS = [
  'Living Room',
  'Garage',
  'Kitchen',
  'Bedroom',
  'Bathroom',
  'Office',
  'Attic',
  'Basement',
];
const STARTER_TAGS = ['Appliances', 'IOT', 'Electronics', 'Servers', 'General', 'Important'];

/**
 * What a new group starts with: the entity types "Item" and "Location" always, and with
 * `starter` the locations and tags a new Homebox collection gets.
 */
export async function seedGroup(
  manager: EntityManager,
  groupId: string,
  options: { starter: boolean },
): Promise<void> {
  const types = await manager.save(EntityTypeRecord, [
    manager.create(EntityTypeRecord, { groupId, name: 'Item', isLocation: false, icon: '' }),
    manager.create(EntityTypeRecord, { groupId, name: 'Location', isLocation: true, icon: '' }),
  ]);
  if (!options.starter) return;
  const locationType = types[1];
  await manager.insert(
    EntityRecord,
    STARTER_LOCATIONS.map((name, index) => ({
      groupId,
      entityTypeId: locationType.id,
      name,
      quantity: 1,
      assetId: String(index + 1),
    })),
  );
  await manager.insert(
    TagRecord,
    STARTER_TAGS.map((name) => ({ groupId, name })),
  );
}
