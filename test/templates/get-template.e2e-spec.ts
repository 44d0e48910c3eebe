import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  createTag,
  createTemplate,
  expectUnauthenticated,
  FIELD_KEYS,
  fieldShape,
  locations,
  readTemplate,
  SUMMARY_KEYS,
  tags,
  templateShape,
  TEMPLATES,
  UNKNOWN_ID,
  type Reference,
  type TagBody,
  type TemplateBody,
} from './template-helpers.js';

describe('GET /api/v1/templates/{id}', () => {
  let owner: Session;
  let viewer: Session;
  let outsider: Session;
  let rooms: Record<string, Reference>;
  let ownTags: Record<string, TagBody>;
  let template: TemplateBody;

  const app = useTestApp();
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
    rooms = await locations(app.trove, owner);
    ownTags = await tags(app.trove, owner);
    template = await createTemplate(app.trove, owner, {
      name: 'Drill',
      description: 'Cordless drills',
      notes: 'Charge after use',
      defaultQuantity: 3,
      defaultName: 'Drill {{date}}',
      defaultDescription: '18 V drill',
      defaultManufacturer: 'Makita',
      defaultModelNumber: 'DDF485',
      defaultWarrantyDetails: 'Two years',
      defaultTagIds: [ownTags.Important.id, ownTags.Appliances.id],
      defaultLocationId: rooms.Office.id,
      defaultInsured: true,
      defaultLifetimeWarranty: false,
      includeWarrantyFields: true,
      includePurchaseFields: false,
      includeSoldFields: true,
      fields: [
        { type: 'number', name: 'Voltage', numberValue: 18, textValue: 'volts' },
        { type: 'boolean', name: 'Brushless', booleanValue: true },
        { type: 'time', name: 'Serviced', timeValue: '2025-12-24T18:00:00.250Z' },
        { type: 'text', name: 'Chuck', textValue: '13 mm' },
      ],
    });
  });

  const get = (session: Session, id: string) => as(app.trove, session, 'get', `${TEMPLATES}/${id}`);

  describe('success', () => {
    it('answers 200 with the template summary exactly as spec §2.4 describes it', async () => {
      const response = await get(owner, template.id).expect(200);

      expect(response.body).toEqual({
        id: template.id,
        name: 'Drill',
        description: 'Cordless drills',
        notes: 'Charge after use',
        createdAt: template.createdAt,
        updatedAt: template.updatedAt,
        defaultName: 'Drill {{date}}',
        defaultDescription: '18 V drill',
        defaultManufacturer: 'Makita',
        defaultModelNumber: 'DDF485',
        defaultQuantity: 3,
        defaultInsured: true,
        defaultLifetimeWarranty: false,
        defaultWarrantyDetails: 'Two years',
        defaultLocation: { id: rooms.Office.id, name: 'Office' },
        defaultTags: [
          { id: ownTags.Important.id, name: 'Important' },
          { id: ownTags.Appliances.id, name: 'Appliances' },
        ],
        includePurchaseFields: false,
        includeSoldFields: true,
        includeWarrantyFields: true,
        fields: [
          {
            id: expect.any(String),
            type: 'number',
            name: 'Voltage',
            numberValue: 18,
            textValue: 'volts',
            booleanValue: false,
            timeValue: '',
          },
          {
            id: expect.any(String),
            type: 'boolean',
            name: 'Brushless',
            numberValue: 0,
            textValue: '',
            booleanValue: true,
            timeValue: '',
          },
          {
            id: expect.any(String),
            type: 'time',
            name: 'Serviced',
            numberValue: 0,
            textValue: '',
            booleanValue: false,
            timeValue: '2025-12-24T18:00:00.250Z',
          },
          {
            id: expect.any(String),
            type: 'text',
            name: 'Chuck',
            numberValue: 0,
            textValue: '13 mm',
            booleanValue: false,
            timeValue: '',
          },
        ],
      });
      expect(Object.keys(response.body).sort()).toEqual(SUMMARY_KEYS);
      expect(Object.keys(response.body.defaultLocation).sort()).toEqual(['id', 'name']);
      for (const tag of response.body.defaultTags) {
        expect(Object.keys(tag).sort()).toEqual(['id', 'name']);
      }
      for (const field of response.body.fields) {
        expect(Object.keys(field).sort()).toEqual(FIELD_KEYS);
      }
      expect(response.body).toEqual(template);
    });

    it('lets viewers read templates', async () => {
      const response = await get(viewer, template.id).expect(200);
      expect(response.body).toEqual(template);
    });

    it('leaves out default tags deleted since, and shows a deleted location as null', async () => {
      const doomedTag = await createTag(app.trove, owner, 'Doomed');
      const shed = await as(app.trove, owner, 'post', '/api/v1/entities')
        .send({ name: 'Shed', parentId: null })
        .expect(201);
      const created = await createTemplate(app.trove, owner, {
        name: 'Fading',
        defaultTagIds: [doomedTag.id, ownTags.General.id],
        defaultLocationId: shed.body.id,
      });
      expect(created.defaultTags).toEqual([
        { id: doomedTag.id, name: 'Doomed' },
        { id: ownTags.General.id, name: 'General' },
      ]);

      await as(app.trove, owner, 'delete', `/api/v1/tags/${doomedTag.id}`).expect(204);
      await as(app.trove, owner, 'delete', `/api/v1/entities/${shed.body.id}`).expect(204);

      expect(await readTemplate(app.trove, owner, created.id)).toEqual(
        templateShape({
          id: created.id,
          name: 'Fading',
          createdAt: created.createdAt,
          updatedAt: created.updatedAt,
          defaultTags: [{ id: ownTags.General.id, name: 'General' }],
          defaultLocation: null,
        }),
      );
    });

    it('shows a location’s new name after it is renamed', async () => {
      const created = await createTemplate(app.trove, owner, {
        name: 'Kitchen things',
        defaultLocationId: rooms.Kitchen.id,
        fields: [{ type: 'text', name: 'Room' }],
      });
      await app.trove.query("UPDATE entities SET name = 'Galley' WHERE id = $1", [
        rooms.Kitchen.id,
      ]);
      expect(await readTemplate(app.trove, owner, created.id)).toEqual(
        templateShape({
          id: created.id,
          name: 'Kitchen things',
          createdAt: created.createdAt,
          updatedAt: created.updatedAt,
          defaultLocation: { id: rooms.Kitchen.id, name: 'Galley' },
          fields: [fieldShape({ id: created.fields[0].id, type: 'text', name: 'Room' })],
        }),
      );
    });
  });

  describe('bad input', () => {
    it('answers 400 for an id that is not a UUID', async () => {
      const response = await get(owner, 'not-a-uuid');
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'invalid route key: id' });
    });

    it('answers 404 for an unknown id', async () => {
      const response = await get(owner, UNKNOWN_ID);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: `template ${UNKNOWN_ID} not found` });
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token or with a bad one', async () => {
      await expectUnauthenticated(app.trove, 'get', `${TEMPLATES}/${template.id}`);
    });
  });

  describe('another group', () => {
    it('answers 404 for another group’s template, as for an unknown one', async () => {
      const response = await get(outsider, template.id);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: `template ${template.id} not found` });
      expect(await readTemplate(app.trove, owner, template.id)).toEqual(template);
    });
  });
});
