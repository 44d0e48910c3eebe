import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import type { AuthUser } from '../../src/identity/auth/auth-user.js';
import { TagsService } from '../../src/inventory/tags/tags.service.js';
import { signUp, type Session } from '../support/factories.js';
import { createChain, listTags, UNKNOWN_ID, type TagOutBody } from './tag-helpers.js';

/** The service API other modules (entities) call, used the way they will use it. */
describe('TagsService for other modules', () => {
  let tags: TagsService;
  let owner: Session;
  let outsider: Session;
  let user: AuthUser;
  let root: TagOutBody;
  let child: TagOutBody;
  let grandchild: TagOutBody;
  let foreign: TagOutBody;

  const asAuthUser = (session: Session): AuthUser => ({
    id: session.id,
    credential: { kind: 'session', tokenId: 'test' },
    tokenRoles: ['user'],
    tenant: { groupId: session.groupId, role: 'owner' },
    groupId: session.groupId,
    role: 'owner',
  });

  const app = useTestApp();
  beforeAll(async () => {
    tags = app.trove.app.get(TagsService);
    owner = await signUp(app.trove, { name: 'Ada' });
    outsider = await signUp(app.trove, { name: 'Eve' });
    user = asAuthUser(owner);
    [root, child, grandchild] = await createChain(app.trove, owner, [
      'Root',
      'Child',
      'Grandchild',
    ]);
    [foreign] = await createChain(app.trove, outsider, ['Foreign', 'Foreign child']);
  });

  describe('findOwnedOrFail', () => {
    it('returns the group’s tag record', async () => {
      const record = await tags.findOwnedOrFail(user, child.id);
      expect(record).toMatchObject({
        id: child.id,
        groupId: owner.groupId,
        parentId: root.id,
        name: 'Child',
      });
    });

    it('throws a 404 for a foreign, unknown or malformed id', async () => {
      for (const id of [foreign.id, UNKNOWN_ID, 'nope']) {
        await expect(tags.findOwnedOrFail(user, id)).rejects.toMatchObject({
          status: 404,
          message: `tag ${id} not found`,
        });
      }
    });
  });

  describe('findOwnedMany', () => {
    it('returns the records in the order given, without duplicates', async () => {
      const records = await tags.findOwnedMany(user, [grandchild.id, root.id, grandchild.id]);
      expect(records.map((record) => record.id)).toEqual([grandchild.id, root.id]);
      expect(await tags.findOwnedMany(user, [])).toEqual([]);
    });

    it('throws a 422 naming the field for a foreign or unknown id', async () => {
      await expect(tags.findOwnedMany(user, [root.id, foreign.id])).rejects.toMatchObject({
        status: 422,
        fields: { tagIds: `tag ${foreign.id} not found` },
      });
      await expect(tags.findOwnedMany(user, [UNKNOWN_ID], 'defaultTagIds')).rejects.toMatchObject({
        status: 422,
        fields: { defaultTagIds: `tag ${UNKNOWN_ID} not found` },
      });
      await expect(tags.findOwnedMany(user, ['bad'])).rejects.toMatchObject({
        status: 422,
        fields: { tagIds: 'tag bad not found' },
      });
      expect((await listTags(app.trove, outsider)).map((tag) => tag.id)).toContain(foreign.id);
    });
  });
});
