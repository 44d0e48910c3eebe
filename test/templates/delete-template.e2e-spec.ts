import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  createTemplate,
  expectUnauthenticated,
  listItemOf,
  listTemplates,
  readTemplate,
  storedTemplates,
  TEMPLATES,
  UNKNOWN_ID,
  VIEWER_ONLY_READS,
} from './template-helpers.js';

describe('DELETE /api/v1/templates/{id}', () => {
  let owner: Session;
  let member: Session;
  let viewer: Session;
  let outsider: Session;

  const app = useTestApp();
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    member = await signUpMember(app.trove, owner, 'user');
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
  });

  const remove = (session: Session, id: string) =>
    as(app.trove, session, 'delete', `${TEMPLATES}/${id}`);

  describe('success', () => {
    it('answers 204 and deletes the template with its fields, leaving the others', async () => {
      const kept = await createTemplate(app.trove, owner, { name: 'Kept' });
      const template = await createTemplate(app.trove, owner, {
        name: 'Doomed',
        fields: [
          { type: 'text', name: 'A', textValue: 'a' },
          { type: 'number', name: 'B', numberValue: 2 },
        ],
      });

      const response = await remove(member, template.id).expect(204);

      expect(response.body).toEqual({});
      expect(response.text).toBe('');
      const read = await as(app.trove, owner, 'get', `${TEMPLATES}/${template.id}`);
      expect(read.status).toBe(404);
      expect(await listTemplates(app.trove, owner)).toEqual([listItemOf(kept)]);
      expect(
        await app.trove.query('SELECT id FROM template_fields WHERE template_id = $1', [
          template.id,
        ]),
      ).toEqual([]);
    });

    it('clears it as the default template of entity types and keeps entities made from it', async () => {
      const template = await createTemplate(app.trove, owner, {
        name: 'Default',
        defaultName: 'Made',
      });
      const type = await as(app.trove, owner, 'post', '/api/v1/entity-types')
        .send({ name: 'Gadget', defaultTemplateId: template.id })
        .expect(201);
      expect(type.body.defaultTemplateId).toBe(template.id);
      const made = await as(app.trove, owner, 'post', `${TEMPLATES}/${template.id}/create-item`)
        .send({})
        .expect(201);

      await remove(owner, template.id).expect(204);

      const types = await as(app.trove, owner, 'get', '/api/v1/entity-types').expect(200);
      const gadget = (types.body as { id: string }[]).find((item) => item.id === type.body.id);
      expect(gadget).toEqual({
        ...type.body,
        defaultTemplateId: '',
        defaultTemplate: null,
      });
      const entity = await as(app.trove, owner, 'get', `/api/v1/entities/${made.body.id}`).expect(
        200,
      );
      expect(entity.body.name).toBe('Made');
    });
  });

  describe('bad input', () => {
    it('answers 400 for an id that is not a UUID', async () => {
      const response = await remove(owner, 'not-a-uuid');
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'invalid route key: id' });
    });

    it('answers 404 for an unknown id and for a template already deleted', async () => {
      const template = await createTemplate(app.trove, owner, { name: 'Twice' });
      await remove(owner, template.id).expect(204);
      const before = await storedTemplates(app.trove, owner.groupId);

      for (const id of [UNKNOWN_ID, template.id]) {
        const response = await remove(owner, id);
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ error: `template ${id} not found` });
      }
      expect(await storedTemplates(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token or with a bad one, and deletes nothing', async () => {
      const template = await createTemplate(app.trove, owner, { name: 'Anonymous target' });
      await expectUnauthenticated(app.trove, 'delete', `${TEMPLATES}/${template.id}`);
      expect(await readTemplate(app.trove, owner, template.id)).toEqual(template);
    });

    it('refuses viewers with 403 and deletes nothing', async () => {
      const template = await createTemplate(app.trove, owner, { name: 'Viewer target' });
      const response = await remove(viewer, template.id);
      expect(response.status).toBe(403);
      expect(response.body).toEqual(VIEWER_ONLY_READS);
      expect(await readTemplate(app.trove, owner, template.id)).toEqual(template);
    });
  });

  describe('another group', () => {
    it('answers 404 for another group’s template and deletes nothing', async () => {
      const template = await createTemplate(app.trove, owner, {
        name: 'Not Eve’s',
        fields: [{ type: 'text', name: 'F' }],
      });
      const before = await storedTemplates(app.trove, owner.groupId);

      const response = await remove(outsider, template.id);

      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: `template ${template.id} not found` });
      expect(await storedTemplates(app.trove, owner.groupId)).toEqual(before);
      expect(await readTemplate(app.trove, owner, template.id)).toEqual(template);
    });
  });
});
