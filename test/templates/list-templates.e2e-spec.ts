import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
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
  let trove: TestApp;
  let owner: Session;
  let viewer: Session;
  let outsider: Session;

  beforeAll(async () => {
    trove = await createTestApp();
    owner = await signUp(trove, { name: 'Ada' });
    viewer = await signUpMember(trove, owner, 'viewer');
    outsider = await signUp(trove, { name: 'Eve' });
  });
  afterAll(() => trove.close());

  describe('success', () => {
    it('answers 200 with [] while the group has no templates', async () => {
      const response = await as(trove, owner, 'get', TEMPLATES).expect(200);
      expect(response.body).toEqual([]);
    });

    it('lists the group’s templates by name, case-insensitively, each with five members', async () => {
      const made: Record<string, TemplateBody> = {};
      for (const name of ['toolbox', 'Cable', 'Book', 'apple', 'Zebra', 'cable']) {
        made[name] = await createTemplate(trove, owner, {
          name,
          description: `about ${name}`,
          notes: 'not listed',
          defaultName: 'not listed',
          fields: [{ type: 'text', name: 'not listed' }],
        });
      }

      const response = await as(trove, owner, 'get', TEMPLATES).expect(200);

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
      const response = await as(trove, viewer, 'get', TEMPLATES).expect(200);
      expect(response.body).toEqual(await listTemplates(trove, owner));
      expect(response.body).toHaveLength(6);
    });
  });

  describe('bad input', () => {
    it('ignores query parameters it does not know', async () => {
      const response = await as(trove, owner, 'get', `${TEMPLATES}?page=x&name=apple`).expect(200);
      expect(response.body).toEqual(await listTemplates(trove, owner));
      expect(response.body).toHaveLength(6);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token or with a bad one', async () => {
      await expectUnauthenticated(trove, 'get', TEMPLATES);
    });
  });

  describe('another group', () => {
    it('lists only the caller’s group’s templates', async () => {
      const theirs = await createTemplate(trove, outsider, { name: 'Eve’s template' });

      expect(await listTemplates(trove, outsider)).toEqual([listItemOf(theirs)]);
      const mine = await listTemplates(trove, owner);
      expect(mine).toHaveLength(6);
      expect(mine.map((item) => item.id)).not.toContain(theirs.id);
    });
  });
});
