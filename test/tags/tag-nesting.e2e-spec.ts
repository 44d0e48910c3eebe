import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, type Session } from '../support/factories.js';
import {
  as,
  createChain,
  createTag,
  CYCLE,
  readTag,
  storedTags,
  summaryOf,
  summaryShape,
  TOO_DEEP,
} from './tag-helpers.js';

describe('tag nesting rules', () => {
  let owner: Session;

  const app = useTestApp();
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
  });

  const update = (id: string, body: object) =>
    as(app.trove, owner, 'put', `/api/v1/tags/${id}`).send(body);

  /** Asserts a refusal with exactly this body, and that no tag of the group changed. */
  const expectRefused = async (
    send: () => ReturnType<typeof update>,
    expected: object,
  ): Promise<void> => {
    const before = await storedTags(app.trove, owner.groupId);
    const response = await send();
    expect(response.status).toBe(422);
    expect(response.body).toEqual(expected);
    expect(await storedTags(app.trove, owner.groupId)).toEqual(before);
  };

  describe('cycles', () => {
    it('refuses to nest a tag under itself', async () => {
      const tag = await createTag(app.trove, owner, { name: 'Self' });
      await expectRefused(() => update(tag.id, { name: 'Self', parentId: tag.id }), CYCLE);
    });

    it('refuses to nest a tag under its child or a deeper descendant', async () => {
      const [a, b, c, d] = await createChain(app.trove, owner, ['A', 'B', 'C', 'D']);
      for (const descendant of [b, c, d]) {
        await expectRefused(() => update(a.id, { name: 'A', parentId: descendant.id }), CYCLE);
      }
      await expectRefused(() => update(b.id, { name: 'B', parentId: d.id }), CYCLE);
      expect((await readTag(app.trove, owner, a.id)).parent).toBeNull();
    });

    it('lets two opposite moves run at once without creating a cycle', async () => {
      for (let round = 0; round < 5; round += 1) {
        const x = await createTag(app.trove, owner, { name: `X${round}` });
        const y = await createTag(app.trove, owner, { name: `Y${round}` });

        const [first, second] = await Promise.all([
          update(x.id, { name: x.name, parentId: y.id }),
          update(y.id, { name: y.name, parentId: x.id }),
        ]);

        expect([first.status, second.status].sort()).toEqual([200, 422]);
        expect([first.body, second.body]).toContainEqual(CYCLE);
        const rows = await app.trove.query<{ id: string; parent_id: string | null }>(
          'SELECT id, parent_id FROM tags WHERE id = ANY($1::uuid[])',
          [[x.id, y.id]],
        );
        expect(rows.filter((row) => row.parent_id === null)).toHaveLength(1);
      }
    });
  });

  describe('depth', () => {
    it('allows five levels and refuses a sixth on create, writing nothing', async () => {
      const chain = await createChain(app.trove, owner, ['L1', 'L2', 'L3', 'L4', 'L5']);
      expect((await readTag(app.trove, owner, chain[4].id)).parent).toEqual(summaryOf(chain[3]));

      await expectRefused(
        () =>
          as(app.trove, owner, 'post', '/api/v1/tags').send({ name: 'L6', parentId: chain[4].id }),
        TOO_DEEP,
      );
      expect((await readTag(app.trove, owner, chain[4].id)).children).toEqual([]);
    });

    it('counts the whole moved subtree and refuses a move past five levels', async () => {
      const [, , p3] = await createChain(app.trove, owner, ['P1', 'P2', 'P3']);
      const [s1, s2, s3] = await createChain(app.trove, owner, ['S1', 'S2', 'S3']);

      // S1-S2-S3 under P3 would reach level 6.
      await expectRefused(() => update(s1.id, { name: 'S1', parentId: p3.id }), TOO_DEEP);
      // S2-S3 under P3 reaches exactly level 5.
      const moved = await update(s2.id, { name: 'S2', parentId: p3.id }).expect(200);
      expect(moved.body).toEqual({
        ...summaryShape({ id: s2.id, name: 'S2', parentId: p3.id, createdAt: s2.createdAt }),
        parent: summaryOf(p3),
        children: [summaryOf(s3)],
      });
      // Nothing more fits below S3 now, and S1 may not take S2 back under a deeper parent.
      await expectRefused(
        () => as(app.trove, owner, 'post', '/api/v1/tags').send({ name: 'S4', parentId: s3.id }),
        TOO_DEEP,
      );
      expect((await readTag(app.trove, owner, s1.id)).children).toEqual([]);
    });

    it('refuses to move a tag whose own subtree is already five levels deep under any parent', async () => {
      const [top] = await createChain(app.trove, owner, ['D1', 'D2', 'D3', 'D4', 'D5']);
      const root = await createTag(app.trove, owner, { name: 'Root' });
      await expectRefused(() => update(top.id, { name: 'D1', parentId: root.id }), TOO_DEEP);
    });
  });
});
