import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  createTemplate,
  expectUnauthenticated,
  LIST_ITEM_KEYS,
  listItemOf,
  listTemplates,
  TEMPLATES,
  type TemplateBody,
} from './template-helpers.js';

describe('GET /api/v1/templates', () => {
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
    it('answers 200 with [] while the group has no templates', async () => {
      const response = await as(app.trove, owner, 'get', TEMPLATES).expect(200);
      expect(response.body).toEqual([]);
    });

    it('lists the group’s templates by name, case-insensitively, each with five members', async () => {
      const made: Record<string, TemplateBody> = {};
      for (const name of ['toolbox', 'Cable', 'Book', 'apple', 'Zebra', 'cable']) {
        made[name] = await createTemplate(app.trove, owner, {
          name,
          description: `about ${name}`,
          notes: 'not listed',
          defaultName: 'not listed',
          fields: [{ type: 'text', name: 'not listed' }],
        });
      }

      const response = await as(app.trove, owner, 'get', TEMPLATES).expect(200);

      expect(response.body).toEqual(
        ['apple', 'Book', 'Cable', 'cable', 'toolbox', 'Zebra'].map((name) =>
          listItemOf(made[name]),
        ),
      );
      expect(response.body[0]).toEqual({
        id: made.apple.id,
        name: 'apple',
        description: 'about apple',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      for (const item of response.body) expect(Object.keys(item).sort()).toEqual(LIST_ITEM_KEYS);
    });

    it('lets viewers list templates', async () => {
      const response = await as(app.trove, viewer, 'get', TEMPLATES).expect(200);
      expect(response.body).toEqual(await listTemplates(app.trove, owner));
      expect(response.body).toHaveLength(6);
    });
  });

  describe('bad input', () => {
    it('ignores query parameters it does not know', async () => {
      const response = await as(app.trove, owner, 'get', `${TEMPLATES}?page=x&name=apple`).expect(
        200,
      );
      expect(response.body).toEqual(await listTemplates(app.trove, owner));
      expect(response.body).toHaveLength(6);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token or with a bad one', async () => {
      await expectUnauthenticated(app.trove, 'get', TEMPLATES);
    });
  });

  describe('another group', () => {
    it('lists only the caller’s group’s templates', async () => {
      const theirs = await createTemplate(app.trove, outsider, { name: 'Eve’s template' });

      expect(await listTemplates(app.trove, outsider)).toEqual([listItemOf(theirs)]);
      const mine = await listTemplates(app.trove, owner);
      expect(mine).toHaveLength(6);
      expect(mine.map((item) => item.id)).not.toContain(theirs.id);
    });
  });
});
