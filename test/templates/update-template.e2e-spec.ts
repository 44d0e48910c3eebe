import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  createTemplate,
  expectUnauthenticated,
  fieldShape,
  locations,
  readTemplate,
  storedTemplates,
  SUMMARY_KEYS,
  tags,
  templateShape,
  TEMPLATES,
  UNKNOWN_ID,
  validationError,
  VIEWER_ONLY_READS,
  type Reference,
  type TagBody,
  type TemplateBody,
} from './template-helpers.js';

describe('PUT /api/v1/templates/{id}', () => {
  let owner: Session;
  let member: Session;
  let viewer: Session;
  let outsider: Session;
  let rooms: Record<string, Reference>;
  let ownTags: Record<string, TagBody>;
  let outsiderRooms: Record<string, Reference>;
  let outsiderTags: Record<string, TagBody>;

  const app = useTestApp();
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    member = await signUpMember(app.trove, owner, 'user');
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
    rooms = await locations(app.trove, owner);
    ownTags = await tags(app.trove, owner);
    outsiderRooms = await locations(app.trove, outsider);
    outsiderTags = await tags(app.trove, outsider);
  });

  /** A template with every member set, and three fields. */
  const fullTemplate = (name = 'Camera') =>
    createTemplate(app.trove, owner, {
      name,
      description: 'Cameras',
      notes: 'Handle with care',
      defaultQuantity: 2,
      defaultName: 'Camera {{counter}}',
      defaultDescription: 'A camera',
      defaultManufacturer: 'Canon',
      defaultModelNumber: 'R6',
      defaultWarrantyDetails: 'One year',
      defaultTagIds: [ownTags.Electronics.id],
      defaultLocationId: rooms.Office.id,
      defaultInsured: true,
      defaultLifetimeWarranty: true,
      includeWarrantyFields: true,
      includePurchaseFields: true,
      includeSoldFields: true,
      fields: [
        { type: 'text', name: 'Mount', textValue: 'RF' },
        { type: 'number', name: 'Megapixels', numberValue: 20 },
        { type: 'boolean', name: 'Weather sealed', booleanValue: true },
      ],
    });

  const put = (session: Session, id: string, body: unknown) =>
    as(app.trove, session, 'put', `${TEMPLATES}/${id}`).send(body as object);

  describe('success', () => {
    it('replaces every member; fields with an id change, without one are added, others go', async () => {
      const template = await fullTemplate();
      const [mount, megapixels] = template.fields;

      const response = await put(owner, template.id, {
        id: template.id,
        name: 'Camera body',
        description: 'Mirrorless bodies',
        notes: 'Keep the cap on',
        defaultQuantity: 1.5,
        defaultName: 'Body {{date}}',
        defaultDescription: 'A body',
        defaultManufacturer: 'Sony',
        defaultModelNumber: 'A7 IV',
        defaultWarrantyDetails: 'Two years',
        defaultTagIds: [ownTags.Important.id, ownTags.General.id],
        defaultLocationId: rooms.Attic.id,
        defaultInsured: false,
        defaultLifetimeWarranty: false,
        includeWarrantyFields: false,
        includePurchaseFields: true,
        includeSoldFields: false,
        fields: [
          { id: megapixels.id, type: 'number', name: 'Megapixels', numberValue: 33 },
          { type: 'time', name: 'Bought', timeValue: '2024-05-01T12:00:00Z' },
          { id: mount.id, type: 'text', name: 'Lens mount', textValue: 'E' },
          { type: 'boolean', name: 'Has grip', booleanValue: true },
        ],
      }).expect(200);

      expect(response.body).toEqual(
        templateShape({
          id: template.id,
          createdAt: template.createdAt,
          name: 'Camera body',
          description: 'Mirrorless bodies',
          notes: 'Keep the cap on',
          defaultQuantity: 1.5,
          defaultName: 'Body {{date}}',
          defaultDescription: 'A body',
          defaultManufacturer: 'Sony',
          defaultModelNumber: 'A7 IV',
          defaultWarrantyDetails: 'Two years',
          defaultTags: [
            { id: ownTags.Important.id, name: 'Important' },
            { id: ownTags.General.id, name: 'General' },
          ],
          defaultLocation: { id: rooms.Attic.id, name: 'Attic' },
          includePurchaseFields: true,
          fields: [
            fieldShape({ id: megapixels.id, type: 'number', name: 'Megapixels', numberValue: 33 }),
            fieldShape({ type: 'time', name: 'Bought', timeValue: '2024-05-01T12:00:00.000Z' }),
            fieldShape({ id: mount.id, type: 'text', name: 'Lens mount', textValue: 'E' }),
            fieldShape({ type: 'boolean', name: 'Has grip', booleanValue: true }),
          ],
        }),
      );
      const updated = response.body as TemplateBody;
      expect(Object.keys(updated).sort()).toEqual(SUMMARY_KEYS);
      expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(template.updatedAt));
      expect(await readTemplate(app.trove, owner, template.id)).toEqual(updated);
      const rows = await app.trove.query('SELECT id FROM template_fields WHERE template_id = $1', [
        template.id,
      ]);
      expect(rows).toHaveLength(4);
    });

    it('keeps the nullable defaults when omitted or null and resets everything else', async () => {
      for (const [name, body] of [
        ['Omitted', {}],
        [
          'Nulls',
          {
            defaultQuantity: null,
            defaultName: null,
            defaultDescription: null,
            defaultManufacturer: null,
            defaultModelNumber: null,
            defaultWarrantyDetails: null,
            defaultTagIds: null,
            defaultLocationId: null,
            fields: null,
          },
        ],
      ] as const) {
        const template = await fullTemplate(name);

        const response = await put(member, template.id, { name, ...body }).expect(200);

        expect(response.body).toEqual(
          templateShape({
            id: template.id,
            createdAt: template.createdAt,
            name,
            defaultQuantity: 2,
            defaultName: 'Camera {{counter}}',
            defaultDescription: 'A camera',
            defaultManufacturer: 'Canon',
            defaultModelNumber: 'R6',
            defaultWarrantyDetails: 'One year',
          }),
        );
        const rows = await app.trove.query(
          'SELECT id FROM template_fields WHERE template_id = $1',
          [template.id],
        );
        expect(rows).toEqual([]);
      }
    });

    it('clears tags with [], the location with the zero UUID, and accepts "" defaults', async () => {
      const template = await fullTemplate('Clearing');
      const response = await put(owner, template.id, {
        name: 'Clearing',
        defaultTagIds: [],
        defaultLocationId: '00000000-0000-0000-0000-000000000000',
        defaultName: '',
        defaultQuantity: 0,
        fields: template.fields,
      }).expect(200);
      expect(response.body).toEqual(
        templateShape({
          id: template.id,
          createdAt: template.createdAt,
          name: 'Clearing',
          defaultQuantity: 0,
          defaultDescription: 'A camera',
          defaultManufacturer: 'Canon',
          defaultModelNumber: 'R6',
          defaultWarrantyDetails: 'One year',
          fields: template.fields,
        }),
      );
    });

    it('adds a field whose id is the zero UUID, "", null or absent, as create does', async () => {
      const template = await createTemplate(app.trove, owner, {
        name: 'New fields',
        fields: [{ type: 'text', name: 'Kept', textValue: 'k' }],
      });
      const [kept] = template.fields;
      const response = await put(owner, template.id, {
        name: 'New fields',
        fields: [
          { id: '00000000-0000-0000-0000-000000000000', type: 'text', name: 'Zero' },
          { id: kept.id, type: 'text', name: 'Kept', textValue: 'k' },
          { id: '', type: 'number', name: 'Empty', numberValue: 3 },
          { id: null, type: 'boolean', name: 'Null', booleanValue: true },
          { type: 'text', name: 'Absent', textValue: 'a' },
        ],
      }).expect(200);

      const fields = (response.body as TemplateBody).fields;
      expect(fields).toEqual([
        fieldShape({ type: 'text', name: 'Zero' }),
        fieldShape({ id: kept.id, type: 'text', name: 'Kept', textValue: 'k' }),
        fieldShape({ type: 'number', name: 'Empty', numberValue: 3 }),
        fieldShape({ type: 'boolean', name: 'Null', booleanValue: true }),
        fieldShape({ type: 'text', name: 'Absent', textValue: 'a' }),
      ]);
      expect(new Set(fields.map((field) => field.id)).size).toBe(5);
      expect(fields.map((field) => field.id)).not.toContain('00000000-0000-0000-0000-000000000000');
      expect((await readTemplate(app.trove, owner, template.id)).fields).toEqual(fields);
    });

    it('keeps the fields in the order last sent, and number values up to ±(2^53 − 1)', async () => {
      const template = await createTemplate(app.trove, owner, {
        name: 'Reordered',
        fields: [
          { type: 'text', name: 'A' },
          { type: 'number', name: 'B', numberValue: 1 },
          { type: 'text', name: 'C' },
        ],
      });
      const [a, b, c] = template.fields;
      const response = await put(owner, template.id, {
        name: 'Reordered',
        fields: [
          { id: c.id, type: 'text', name: 'C' },
          { type: 'number', name: 'New', numberValue: -Number.MAX_SAFE_INTEGER },
          { id: a.id, type: 'text', name: 'A' },
          { id: b.id, type: 'number', name: 'B', numberValue: Number.MAX_SAFE_INTEGER },
        ],
      }).expect(200);

      const expected = [
        fieldShape({ id: c.id, type: 'text', name: 'C' }),
        fieldShape({ type: 'number', name: 'New', numberValue: -Number.MAX_SAFE_INTEGER }),
        fieldShape({ id: a.id, type: 'text', name: 'A' }),
        fieldShape({ id: b.id, type: 'number', name: 'B', numberValue: Number.MAX_SAFE_INTEGER }),
      ];
      expect((response.body as TemplateBody).fields).toEqual(expected);
      expect((await readTemplate(app.trove, owner, template.id)).fields).toEqual(expected);
    });

    it('counts a change of fields alone as an update', async () => {
      const template = await createTemplate(app.trove, owner, {
        name: 'Fields only',
        fields: [{ type: 'text', name: 'A' }],
      });
      const response = await put(owner, template.id, {
        name: 'Fields only',
        fields: [{ id: template.fields[0].id, type: 'text', name: 'A', textValue: 'changed' }],
      }).expect(200);
      const updated = response.body as TemplateBody;
      expect(updated.fields).toEqual([
        fieldShape({ id: template.fields[0].id, type: 'text', name: 'A', textValue: 'changed' }),
      ]);
      expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(template.updatedAt));
    });
  });

  describe('bad input', () => {
    let template: TemplateBody;
    let other: TemplateBody;

    beforeAll(async () => {
      template = await fullTemplate('Target');
      other = await fullTemplate('Other');
    });

    const expectRefused = async (body: unknown, fields: Record<string, string>): Promise<void> => {
      const before = await storedTemplates(app.trove, owner.groupId);
      const response = await put(owner, template.id, body);
      expect({ body, status: response.status, response: response.body }).toEqual({
        body,
        status: 422,
        response: validationError(fields),
      });
      expect(await storedTemplates(app.trove, owner.groupId)).toEqual(before);
    };

    it('answers 422 for a missing or too long name and oversized texts', async () => {
      await expectRefused(
        { description: 'no name' },
        { name: 'name must be longer than or equal to 1 characters; name must be a string' },
      );
      await expectRefused(
        { name: 'n'.repeat(256), defaultName: 'a'.repeat(256), notes: 'o'.repeat(1001) },
        {
          name: 'name must be shorter than or equal to 255 characters',
          defaultName: 'defaultName must be shorter than or equal to 255 characters',
          notes: 'notes must be shorter than or equal to 1000 characters',
        },
      );
    });

    it('answers 422 for a field id that is not a field of this template, or listed twice', async () => {
      const [first] = template.fields;
      await expectRefused(
        { name: 'Target', fields: [{ id: UNKNOWN_ID, type: 'text', name: 'x' }] },
        { 'fields.0.id': `field ${UNKNOWN_ID} is not a field of this template` },
      );
      await expectRefused(
        {
          name: 'Target',
          fields: [
            { type: 'text', name: 'new' },
            { id: other.fields[0].id, type: 'text', name: 'stolen' },
          ],
        },
        { 'fields.1.id': `field ${other.fields[0].id} is not a field of this template` },
      );
      await expectRefused(
        {
          name: 'Target',
          fields: [
            { id: first.id, type: 'text', name: 'one' },
            { id: first.id, type: 'text', name: 'two' },
          ],
        },
        { 'fields.1.id': `field ${first.id} is listed more than once` },
      );
      await expectRefused(
        { name: 'Target', fields: [{ id: 'nope', type: 'text', name: 'x' }] },
        { 'fields.0.id': 'id must be a UUID' },
      );
    });

    it('answers 422 for unknown tags and locations, and for malformed fields', async () => {
      await expectRefused(
        { name: 'Target', defaultTagIds: [UNKNOWN_ID] },
        { defaultTagIds: `tag ${UNKNOWN_ID} not found` },
      );
      await expectRefused(
        { name: 'Target', defaultLocationId: UNKNOWN_ID },
        { defaultLocationId: `entity ${UNKNOWN_ID} not found` },
      );
      await expectRefused(
        { name: 'Target', fields: [{ type: 'time', name: 'When', timeValue: 'soon' }] },
        {
          'fields.0.timeValue':
            'timeValue must be an RFC 3339 timestamp such as 2026-01-31T09:30:00Z, or null',
        },
      );
    });

    it('answers 400 for an id that is not a UUID and 404 for an unknown one', async () => {
      const invalid = await put(owner, 'nope', { name: 'x' });
      expect(invalid.status).toBe(400);
      expect(invalid.body).toEqual({ error: 'invalid route key: id' });

      const before = await storedTemplates(app.trove, owner.groupId);
      const unknown = await put(owner, UNKNOWN_ID, { name: 'x' });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: `template ${UNKNOWN_ID} not found` });
      expect(await storedTemplates(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token or with a bad one, and changes nothing', async () => {
      const template = await fullTemplate('Locked');
      await expectUnauthenticated(app.trove, 'put', `${TEMPLATES}/${template.id}`, { name: 'x' });
      expect(await readTemplate(app.trove, owner, template.id)).toEqual(template);
    });

    it('refuses viewers with 403 and changes nothing', async () => {
      const template = await fullTemplate('Viewed');
      const response = await put(viewer, template.id, { name: 'Changed' });
      expect(response.status).toBe(403);
      expect(response.body).toEqual(VIEWER_ONLY_READS);
      expect(await readTemplate(app.trove, owner, template.id)).toEqual(template);
    });
  });

  describe('another group', () => {
    it('answers 404 for another group’s template and changes nothing', async () => {
      const template = await fullTemplate('Mine');
      const response = await put(outsider, template.id, { name: 'Eve was here' });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: `template ${template.id} not found` });
      expect(await readTemplate(app.trove, owner, template.id)).toEqual(template);
    });

    it('refuses another group’s location, tags and fields with 422 and changes nothing', async () => {
      const template = await fullTemplate('Guarded');
      const theirs = await createTemplate(app.trove, outsider, {
        name: 'Theirs',
        fields: [{ type: 'text', name: 'Secret', textValue: 's' }],
      });
      const before = await storedTemplates(app.trove, outsider.groupId);

      for (const [body, fields] of [
        [
          { defaultLocationId: outsiderRooms.Garage.id },
          { defaultLocationId: `entity ${outsiderRooms.Garage.id} not found` },
        ],
        [
          { defaultTagIds: [outsiderTags.IOT.id] },
          { defaultTagIds: `tag ${outsiderTags.IOT.id} not found` },
        ],
        [
          { fields: [{ id: theirs.fields[0].id, type: 'text', name: 'Secret' }] },
          { 'fields.0.id': `field ${theirs.fields[0].id} is not a field of this template` },
        ],
      ] as const) {
        const response = await put(owner, template.id, { name: 'Guarded', ...body });
        expect(response.status).toBe(422);
        expect(response.body).toEqual(validationError(fields));
      }

      expect(await readTemplate(app.trove, owner, template.id)).toEqual(template);
      expect(await storedTemplates(app.trove, outsider.groupId)).toEqual(before);
    });
  });
});
