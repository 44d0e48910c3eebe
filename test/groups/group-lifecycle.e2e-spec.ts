import { describe, expect, it } from 'vitest';
import { GroupLifecycle } from '../../src/identity/groups/group-lifecycle.js';
import { useTestApp } from '../support/api.js';
import { signUp } from '../support/factories.js';

/**
 * The one extension point of the identity layer: what the modules above register to seed a new
 * group and release a deleted group's files. This list is the place to see who takes part.
 */
describe('the group lifecycle', () => {
  const app = useTestApp();

  it('has exactly these participants, in this order', () => {
    expect(app.trove.app.get(GroupLifecycle).registered()).toEqual([
      { name: 'entity-types', seeds: true, files: false },
      { name: 'tags', seeds: true, files: false },
      { name: 'stored-files', seeds: false, files: true },
      { name: 'entities', seeds: true, files: false },
      { name: 'collection-backups', seeds: false, files: true },
    ]);
  });

  it('seeds a registered user’s group with its types, starter locations and tags', async () => {
    const owner = await signUp(app.trove);
    const types = await app.trove.query<{ name: string; is_location: boolean }>(
      'SELECT name, is_location FROM entity_types WHERE group_id = $1 ORDER BY name',
      [owner.groupId],
    );
    expect(types).toEqual([
      { name: 'Item', is_location: false },
      { name: 'Location', is_location: true },
    ]);
    const locations = await app.trove.query<{ name: string; asset_id: string; type: string }>(
      `SELECT e.name, e.asset_id, t.name AS type FROM entities e
       JOIN entity_types t ON t.id = e.entity_type_id
       WHERE e.group_id = $1 ORDER BY e.asset_id`,
      [owner.groupId],
    );
    expect(locations).toEqual(
      [
        'Living Room',
        'Garage',
        'Kitchen',
        'Bedroom',
        'Bathroom',
        'Office',
        'Attic',
        'Basement',
      ].map((name, index) => ({ name, asset_id: String(index + 1), type: 'Location' })),
    );
    const tags = await app.trove.query<{ name: string }>(
      'SELECT name FROM tags WHERE group_id = $1 ORDER BY name',
      [owner.groupId],
    );
    expect(tags.map((tag) => tag.name)).toEqual([
      'Appliances',
      'Electronics',
      'General',
      'IOT',
      'Important',
      'Servers',
    ]);
  });
});
