import { describe, expect, it } from 'vitest';
import { as, createEntity, useSecondInstance, useSharedApp } from '../support/api.js';
import type { Session } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';
import { locationId, typeId } from './entity-helpers.js';

interface TreeNode {
  id: string;
  name: string;
  type: string;
  children: TreeNode[];
}

/** `id parent name` of every node of a tree, sorted: what a tree says, whatever its order. */
function flatten(nodes: TreeNode[], parent: string | null = null): string[] {
  return nodes
    .flatMap((node) => [`${node.id} ${parent} ${node.name}`, ...flatten(node.children, node.id)])
    .sort();
}

/** The same for the group's locations as they are stored now. */
async function storedLocations(trove: TestApp, session: Session): Promise<string[]> {
  const rows = await trove.query<{ id: string; parent_id: string | null; name: string }>(
    `SELECT e.id, e.parent_id, e.name FROM entities e JOIN entity_types t ON t.id = e.entity_type_id
     WHERE e.group_id = $1 AND t.is_location`,
    [session.groupId],
  );
  return rows.map((row) => `${row.id} ${row.parent_id} ${row.name}`).sort();
}

describe('GET /api/v1/entities/tree: the tree of locations kept between changes', () => {
  const t = useSharedApp();
  const second = useSecondInstance(t);

  /** The tree and its ETag, through the first instance or the second. */
  async function tree(
    session: Session,
    through: 'first' | 'second' = 'first',
  ): Promise<{ etag: string; nodes: TreeNode[] }> {
    const http = through === 'first' ? t.trove.http : second.instance.http;
    const response = await http
      .get('/api/v1/entities/tree')
      .set('Authorization', session.authorization)
      .expect(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    return { etag: response.headers.etag, nodes: response.body as TreeNode[] };
  }

  /** Both instances answer the stored locations; returns the first one's ETag. */
  async function expectCurrent(session: Session): Promise<string> {
    const stored = await storedLocations(t.trove, session);
    const first = await tree(session, 'first');
    const other = await tree(session, 'second');
    expect(flatten(first.nodes)).toEqual(stored);
    expect(flatten(other.nodes)).toEqual(stored);
    expect(other.etag).toBe(first.etag);
    return first.etag;
  }

  it('follows every change of the locations at once, and no change of an item', async () => {
    const owner = t.owner;
    const locationType = await typeId(t.trove, owner, 'Location');
    const itemType = await typeId(t.trove, owner, 'Item');
    const garage = await locationId(t.trove, owner, 'Garage');
    const start = await expectCurrent(owner);
    expect(start).toMatch(new RegExp(`^"${owner.groupId}\\.\\d+"$`));

    // Items are not in the tree: creating, renaming and moving one keeps its ETag.
    const drill = await createEntity(t.trove, owner, { name: 'Drill', parentId: garage });
    await as(t.trove, owner, 'put', `/api/v1/entities/${drill.id}`)
      .send({ name: 'Cordless drill', parentId: garage, assetId: drill.assetId, quantity: 1 })
      .expect(200);
    await as(t.trove, owner, 'patch', `/api/v1/entities/${drill.id}`)
      .send({ parentId: null })
      .expect(200);
    expect(await expectCurrent(owner)).toBe(start);

    const etags = [start];
    const changed = async (): Promise<void> => {
      const etag = await expectCurrent(owner);
      expect(etags).not.toContain(etag);
      etags.push(etag);
    };
    const shelf = await createEntity(t.trove, owner, {
      name: 'Shelf',
      parentId: garage,
      entityTypeId: locationType,
    });
    await changed();
    await as(t.trove, owner, 'put', `/api/v1/entities/${shelf.id}`)
      .send({ name: 'Top shelf', parentId: garage, assetId: shelf.assetId, quantity: 1 })
      .expect(200);
    await changed();
    await as(t.trove, owner, 'patch', `/api/v1/entities/${shelf.id}`)
      .send({ parentId: await locationId(t.trove, owner, 'Attic') })
      .expect(200);
    await changed();
    // A location that becomes an item leaves the tree; an item that becomes a location joins it.
    await as(t.trove, owner, 'patch', `/api/v1/entities/${shelf.id}`)
      .send({ entityTypeId: itemType })
      .expect(200);
    await changed();
    await as(t.trove, owner, 'patch', `/api/v1/entities/${drill.id}`)
      .send({ entityTypeId: locationType })
      .expect(200);
    await changed();
    // A type that becomes a location type brings its entities into the tree.
    const shelving = await as(t.trove, owner, 'post', '/api/v1/entity-types')
      .send({ name: 'Shelving' })
      .expect(201);
    await as(t.trove, owner, 'patch', `/api/v1/entities/${shelf.id}`)
      .send({ entityTypeId: shelving.body.id })
      .expect(200);
    expect(await expectCurrent(owner)).toBe(etags.at(-1));
    await as(t.trove, owner, 'put', `/api/v1/entity-types/${shelving.body.id}`)
      .send({ name: 'Shelving', isLocation: true })
      .expect(200);
    await changed();
    expect(flatten((await tree(owner)).nodes).some((node) => node.startsWith(shelf.id))).toBe(true);
    // A deleted location leaves the tree, and its children move to the top.
    await as(t.trove, owner, 'delete', `/api/v1/entities/${garage}`).expect(204);
    await changed();
  });

  it('answers 304 to the ETag it gave until the locations change', async () => {
    const owner = t.owner;
    const { etag } = await tree(owner);
    const unchanged = await t.trove.http
      .get('/api/v1/entities/tree')
      .set('Authorization', owner.authorization)
      .set('If-None-Match', etag)
      .expect(304);
    expect(unchanged.text).toBe('');
    await createEntity(t.trove, owner, {
      name: 'Cellar',
      entityTypeId: await typeId(t.trove, owner, 'Location'),
    });
    const changed = await t.trove.http
      .get('/api/v1/entities/tree')
      .set('Authorization', owner.authorization)
      .set('If-None-Match', etag)
      .expect(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(flatten(changed.body)).toEqual(await storedLocations(t.trove, owner));
  });

  it('keeps the trees of groups apart: another group’s changes leave this tree as it is', async () => {
    const { etag } = await tree(t.owner);
    const theirs = await tree(t.stranger);
    expect(theirs.etag).not.toBe(etag);
    await createEntity(t.trove, t.stranger, {
      name: 'Their loft',
      entityTypeId: await typeId(t.trove, t.stranger, 'Location'),
    });
    expect((await tree(t.owner)).etag).toBe(etag);
    expect(JSON.stringify((await tree(t.owner)).nodes)).not.toContain('Their loft');
    expect(await expectCurrent(t.stranger)).not.toBe(theirs.etag);
    // The owner's ETag is no key to the stranger's tree.
    await t.trove.http
      .get('/api/v1/entities/tree')
      .set('Authorization', t.stranger.authorization)
      .set('If-None-Match', etag)
      .expect(200);
  });

  it('stays exact while both instances change and read one group’s locations at once', async () => {
    const owner = t.owner;
    const locationType = await typeId(t.trove, owner, 'Location');
    const [kitchen, office] = await Promise.all(
      ['Kitchen', 'Office'].map((name) => locationId(t.trove, owner, name)),
    );
    const http = [t.trove.http, second.instance.http];
    const made = await Promise.all(
      Array.from({ length: 24 }, async (_, k) => {
        const response = await http[k % 2]
          .post('/api/v1/entities')
          .set('Authorization', owner.authorization)
          .send({ name: `Drawer ${k}`, entityTypeId: locationType, parentId: kitchen });
        expect(response.status).toBe(201);
        await http[(k + 1) % 2]
          .get('/api/v1/entities/tree')
          .set('Authorization', owner.authorization)
          .expect(200);
        return response.body as { id: string };
      }),
    );
    await Promise.all(
      made.map(async (drawer, k) => {
        if (k % 3 === 0) {
          await http[k % 2]
            .delete(`/api/v1/entities/${drawer.id}`)
            .set('Authorization', owner.authorization)
            .expect(204);
        } else {
          await http[k % 2]
            .patch(`/api/v1/entities/${drawer.id}`)
            .set('Authorization', owner.authorization)
            .send({ parentId: office })
            .expect(200);
        }
        await http[(k + 1) % 2]
          .get('/api/v1/entities/tree')
          .set('Authorization', owner.authorization)
          .expect(200);
      }),
    );
    await expectCurrent(owner);
  });
});
