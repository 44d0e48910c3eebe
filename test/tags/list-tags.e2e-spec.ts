import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  createTag,
  expectUnauthenticated,
  listTags,
  STARTER_TAGS,
  SUMMARY_KEYS,
  summaryOf,
  summaryShape,
} from './tag-helpers.js';

describe('GET /api/v1/tags', () => {
  let owner: Session;
  let viewer: Session;
  let outsider: Session;

  const app = useTestApp();
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
  });

  describe('success', () => {
    it('lists the starter tags of a new group as summaries, sorted by name', async () => {
      const response = await as(app.trove, owner, 'get', '/api/v1/tags').expect(200);

      expect(response.body).toEqual(STARTER_TAGS.map((name) => summaryShape({ name })));
      for (const tag of response.body as object[]) {
        expect(Object.keys(tag).sort()).toEqual(SUMMARY_KEYS);
      }
    });

    it('sorts case-insensitively, then by id for equal names, and shows parentId for nested tags', async () => {
      const root = await createTag(app.trove, owner, { name: 'cables', color: '#aa0000' });
      const child = await createTag(app.trove, owner, {
        name: 'USB',
        parentId: root.id,
        description: 'all sorts',
        icon: 'mdi-usb',
      });
      const twinA = await createTag(app.trove, owner, { name: 'Twin' });
      const twinB = await createTag(app.trove, owner, { name: 'Twin' });
      const twins = [twinA, twinB].sort((a, b) => a.id.localeCompare(b.id));

      const tags = await listTags(app.trove, owner);

      expect(tags.map((tag) => tag.name)).toEqual([
        'Appliances',
        'cables',
        'Electronics',
        'General',
        'Important',
        'IOT',
        'Servers',
        'Twin',
        'Twin',
        'USB',
      ]);
      expect(tags.filter((tag) => tag.name === 'Twin').map((tag) => tag.id)).toEqual(
        twins.map((tag) => tag.id),
      );
      expect(tags).toContainEqual(summaryOf(root));
      expect(tags).toContainEqual(summaryOf(child));
      expect(summaryOf(child)).toEqual(
        summaryShape({
          id: child.id,
          name: 'USB',
          description: 'all sorts',
          icon: 'mdi-usb',
          parentId: root.id,
        }),
      );
    });

    it('lets a viewer list the group’s tags', async () => {
      expect(await listTags(app.trove, viewer)).toEqual(await listTags(app.trove, owner));
    });
  });

  describe('bad input', () => {
    it('ignores query parameters it does not know', async () => {
      const response = await as(app.trove, owner, 'get', '/api/v1/tags?q=cables&page=2').expect(
        200,
      );
      expect(response.body).toEqual(await listTags(app.trove, owner));
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token', async () => {
      await expectUnauthenticated(app.trove, 'get', '/api/v1/tags');
    });
  });

  describe('another group', () => {
    it('lists only the caller’s own group’s tags', async () => {
      const ours = await listTags(app.trove, owner);
      const theirs = await listTags(app.trove, outsider);

      expect(theirs).toEqual(STARTER_TAGS.map((name) => summaryShape({ name })));
      const ourIds = new Set(ours.map((tag) => tag.id));
      expect(theirs.some((tag) => ourIds.has(tag.id))).toBe(false);
    });
  });
});
