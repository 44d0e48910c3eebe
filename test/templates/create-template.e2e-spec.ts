import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  expectUnauthenticated,
  FIELD_KEYS,
  fieldShape,
  listTemplates,
  locations,
  NIL_UUID,
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

describe('POST /api/v1/templates', () => {
  let owner: Session;
  let member: Session;
  let viewer: Session;
  let outsider: Session;
  let garage: Reference;
  let ownTags: Record<string, TagBody>;
  let outsiderGarage: Reference;
  let outsiderTags: Record<string, TagBody>;

  const app = useTestApp();
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    member = await signUpMember(app.trove, owner, 'user');
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
    garage = (await locations(app.trove, owner)).Garage;
    ownTags = await tags(app.trove, owner);
    outsiderGarage = (await locations(app.trove, outsider)).Garage;
    outsiderTags = await tags(app.trove, outsider);
  });

  const create = (session: Session, body: unknown) =>
    as(app.trove, session, 'post', TEMPLATES).send(body as object);

  describe('success', () => {
    it('creates a template with every member and answers 201 with its summary', async () => {
      const body = {
        name: 'Laptop',
        description: 'Company laptops',
        notes: 'Ask IT first',
        defaultQuantity: 2.5,
        defaultName: 'Laptop {{counter}}',
        defaultDescription: 'A laptop',
        defaultManufacturer: 'Lenovo',
        defaultModelNumber: 'T14',
        defaultWarrantyDetails: 'Three years on site',
        defaultTagIds: [ownTags.Electronics.id, ownTags.Important.id],
        defaultLocationId: garage.id,
        defaultInsured: true,
        defaultLifetimeWarranty: true,
        includeWarrantyFields: true,
        includePurchaseFields: true,
        includeSoldFields: true,
        fields: [
          { type: 'text', name: 'Owner', textValue: 'IT' },
          { type: 'number', name: 'RAM (GB)', numberValue: 32 },
          { type: 'boolean', name: 'Encrypted', booleanValue: true },
          { type: 'time', name: 'Issued', timeValue: '2026-01-31T09:30:00Z' },
        ],
      };

      const response = await create(owner, body).expect(201);

      expect(response.body).toEqual(
        templateShape({
          name: 'Laptop',
          description: 'Company laptops',
          notes: 'Ask IT first',
          defaultQuantity: 2.5,
          defaultName: 'Laptop {{counter}}',
          defaultDescription: 'A laptop',
          defaultManufacturer: 'Lenovo',
          defaultModelNumber: 'T14',
          defaultWarrantyDetails: 'Three years on site',
          defaultTags: [
            { id: ownTags.Electronics.id, name: 'Electronics' },
            { id: ownTags.Important.id, name: 'Important' },
          ],
          defaultLocation: { id: garage.id, name: 'Garage' },
          defaultInsured: true,
          defaultLifetimeWarranty: true,
          includeWarrantyFields: true,
          includePurchaseFields: true,
          includeSoldFields: true,
          fields: [
            fieldShape({ type: 'text', name: 'Owner', textValue: 'IT' }),
            fieldShape({ type: 'number', name: 'RAM (GB)', numberValue: 32 }),
            fieldShape({ type: 'boolean', name: 'Encrypted', booleanValue: true }),
            fieldShape({ type: 'time', name: 'Issued', timeValue: '2026-01-31T09:30:00.000Z' }),
          ],
        }),
      );
      const template = response.body as TemplateBody;
      expect(Object.keys(template).sort()).toEqual(SUMMARY_KEYS);
      for (const field of template.fields) expect(Object.keys(field).sort()).toEqual(FIELD_KEYS);
      expect(template.createdAt).toBe(template.updatedAt);
      expect(await readTemplate(app.trove, owner, template.id)).toEqual(template);
      const [row] = await app.trove.query('SELECT group_id FROM entity_templates WHERE id = $1', [
        template.id,
      ]);
      expect(row).toEqual({ group_id: owner.groupId });
    });

    it('gives omitted members their defaults: quantity 1, texts "", no location, tags or fields', async () => {
      const response = await create(member, { name: 'Bare' }).expect(201);
      expect(response.body).toEqual(templateShape({ name: 'Bare' }));
      expect(Object.keys(response.body).sort()).toEqual(SUMMARY_KEYS);
    });

    it('reads null defaults, a null location, the zero UUID and null lists as "not set"', async () => {
      const response = await create(owner, {
        name: 'Nulls',
        defaultQuantity: null,
        defaultName: null,
        defaultDescription: null,
        defaultManufacturer: null,
        defaultModelNumber: null,
        defaultWarrantyDetails: null,
        defaultTagIds: null,
        fields: null,
        defaultLocationId: null,
      }).expect(201);
      expect(response.body).toEqual(templateShape({ name: 'Nulls' }));

      const zero = await create(owner, { name: 'Zero', defaultLocationId: NIL_UUID }).expect(201);
      expect(zero.body).toEqual(templateShape({ name: 'Zero' }));
    });

    it('keeps field values of every type, with null or "" as none and times in UTC', async () => {
      const response = await create(owner, {
        name: 'Values',
        fields: [
          { type: 'text', name: 'Blank', textValue: null, numberValue: null, booleanValue: null },
          { type: 'time', name: 'Unset', timeValue: '' },
          { type: 'time', name: 'Null', timeValue: null },
          { type: 'time', name: 'Offset', timeValue: '2026-01-31T10:30:00.5+02:00' },
          { type: 'number', name: 'Low', numberValue: -2147483648, textValue: 'kept' },
          { type: 'number', name: 'High', numberValue: 2147483647, booleanValue: true },
        ],
      }).expect(201);

      expect((response.body as TemplateBody).fields).toEqual([
        fieldShape({ type: 'text', name: 'Blank' }),
        fieldShape({ type: 'time', name: 'Unset' }),
        fieldShape({ type: 'time', name: 'Null' }),
        fieldShape({ type: 'time', name: 'Offset', timeValue: '2026-01-31T08:30:00.500Z' }),
        fieldShape({ type: 'number', name: 'Low', numberValue: -2147483648, textValue: 'kept' }),
        fieldShape({ type: 'number', name: 'High', numberValue: 2147483647, booleanValue: true }),
      ]);
    });

    it('keeps number values up to ±(2^53 − 1), beyond 32 bits', async () => {
      const numbers = [
        Number.MAX_SAFE_INTEGER,
        -Number.MAX_SAFE_INTEGER,
        2_147_483_648,
        -2_147_483_649,
      ];
      const response = await create(owner, {
        name: 'Big numbers',
        fields: numbers.map((numberValue, index) => ({
          type: 'number',
          name: `N${index}`,
          numberValue,
        })),
      }).expect(201);

      const expected = numbers.map((numberValue, index) =>
        fieldShape({ type: 'number', name: `N${index}`, numberValue }),
      );
      const template = response.body as TemplateBody;
      expect(template.fields).toEqual(expected);
      expect((await readTemplate(app.trove, owner, template.id)).fields).toEqual(expected);
    });

    it('keeps the fields in the order sent, not by name', async () => {
      const names = ['Zoom', 'aperture', 'Body', 'Ärger', 'Mount'];
      const response = await create(owner, {
        name: 'Ordered',
        fields: names.map((name) => ({ type: 'text', name })),
      }).expect(201);

      const template = response.body as TemplateBody;
      expect(template.fields.map((field) => field.name)).toEqual(names);
      expect(
        (await readTemplate(app.trove, owner, template.id)).fields.map((field) => field.name),
      ).toEqual(names);
    });

    it('ignores field ids and keys it does not declare, such as id, groupId and createdAt', async () => {
      const response = await create(owner, {
        name: 'Sneaky',
        id: UNKNOWN_ID,
        groupId: outsider.groupId,
        createdAt: '2000-01-01T00:00:00.000Z',
        fields: [{ id: UNKNOWN_ID, type: 'text', name: 'F', extra: 1 }],
      }).expect(201);

      const template = response.body as TemplateBody;
      expect(template).toEqual(
        templateShape({ name: 'Sneaky', fields: [fieldShape({ type: 'text', name: 'F' })] }),
      );
      expect(template.id).not.toBe(UNKNOWN_ID);
      expect(template.fields[0].id).not.toBe(UNKNOWN_ID);
      expect(template.createdAt).not.toBe('2000-01-01T00:00:00.000Z');
      expect((await listTemplates(app.trove, outsider)).map((t) => t.name)).not.toContain('Sneaky');
    });

    it('accepts texts of the largest allowed size', async () => {
      const body = {
        name: 'n'.repeat(255),
        description: 'd'.repeat(1000),
        notes: 'o'.repeat(1000),
        defaultName: 'a'.repeat(255),
        defaultDescription: 'b'.repeat(1000),
        defaultManufacturer: 'c'.repeat(255),
        defaultModelNumber: 'e'.repeat(255),
        defaultWarrantyDetails: 'f'.repeat(1000),
        defaultQuantity: 0,
      };
      const response = await create(owner, {
        ...body,
        fields: [{ type: 'text', name: 'x'.repeat(255), textValue: 't'.repeat(500) }],
      }).expect(201);
      expect(response.body).toEqual(
        templateShape({
          ...body,
          fields: [fieldShape({ type: 'text', name: 'x'.repeat(255), textValue: 't'.repeat(500) })],
        }),
      );
    });
  });

  describe('bad input', () => {
    const expectRefused = async (body: unknown, fields: Record<string, string>): Promise<void> => {
      const before = await storedTemplates(app.trove, owner.groupId);
      const response = await create(owner, body);
      expect({ body, status: response.status, response: response.body }).toEqual({
        body,
        status: 422,
        response: validationError(fields),
      });
      expect(await storedTemplates(app.trove, owner.groupId)).toEqual(before);
    };

    it('answers 422 for a missing, empty, too long or non-string name', async () => {
      const missing = 'name must be longer than or equal to 1 characters; name must be a string';
      await expectRefused({}, { name: missing });
      await expectRefused({ name: null }, { name: missing });
      await expectRefused(
        { name: '' },
        { name: 'name must be longer than or equal to 1 characters' },
      );
      await expectRefused(
        { name: 'n'.repeat(256) },
        { name: 'name must be shorter than or equal to 255 characters' },
      );
      await expectRefused(
        { name: 7 },
        {
          name: 'name must be longer than or equal to 1 and shorter than or equal to 255 characters; name must be a string',
        },
      );
    });

    it('answers 422 for texts over their limits, naming each', async () => {
      await expectRefused(
        {
          name: 'Long',
          description: 'd'.repeat(1001),
          notes: 'o'.repeat(1001),
          defaultName: 'a'.repeat(256),
          defaultDescription: 'b'.repeat(1001),
          defaultManufacturer: 'c'.repeat(256),
          defaultModelNumber: 'e'.repeat(256),
          defaultWarrantyDetails: 'f'.repeat(1001),
        },
        {
          description: 'description must be shorter than or equal to 1000 characters',
          notes: 'notes must be shorter than or equal to 1000 characters',
          defaultName: 'defaultName must be shorter than or equal to 255 characters',
          defaultDescription: 'defaultDescription must be shorter than or equal to 1000 characters',
          defaultManufacturer:
            'defaultManufacturer must be shorter than or equal to 255 characters',
          defaultModelNumber: 'defaultModelNumber must be shorter than or equal to 255 characters',
          defaultWarrantyDetails:
            'defaultWarrantyDetails must be shorter than or equal to 1000 characters',
        },
      );
    });

    it('answers 422 for a null description or flag and for values of the wrong type', async () => {
      await expectRefused(
        { name: 'Types', description: null, notes: 3, defaultInsured: null },
        {
          description:
            'description must be shorter than or equal to 1000 characters; description must be a string',
          notes: 'notes must be shorter than or equal to 1000 characters; notes must be a string',
          defaultInsured: 'defaultInsured must be a boolean value',
        },
      );
      await expectRefused(
        {
          name: 'Types',
          defaultLifetimeWarranty: 'yes',
          includeWarrantyFields: 1,
          includePurchaseFields: 'true',
          includeSoldFields: [],
        },
        {
          defaultLifetimeWarranty: 'defaultLifetimeWarranty must be a boolean value',
          includeWarrantyFields: 'includeWarrantyFields must be a boolean value',
          includePurchaseFields: 'includePurchaseFields must be a boolean value',
          includeSoldFields: 'includeSoldFields must be a boolean value',
        },
      );
    });

    it('answers 422 for a negative or non-numeric default quantity', async () => {
      await expectRefused(
        { name: 'Q', defaultQuantity: -1 },
        { defaultQuantity: 'defaultQuantity must not be less than 0' },
      );
      await expectRefused(
        { name: 'Q', defaultQuantity: '3' },
        {
          defaultQuantity:
            'defaultQuantity must not be less than 0; defaultQuantity must be a number conforming to the specified constraints',
        },
      );
    });

    it('answers 422 for default tags that are not tags of the group', async () => {
      await expectRefused(
        { name: 'T', defaultTagIds: ownTags.General.id },
        { defaultTagIds: 'defaultTagIds must be an array' },
      );
      await expectRefused(
        { name: 'T', defaultTagIds: [ownTags.General.id, 'nope'] },
        { defaultTagIds: 'each value in defaultTagIds must be a UUID' },
      );
      await expectRefused(
        { name: 'T', defaultTagIds: [ownTags.General.id, UNKNOWN_ID] },
        { defaultTagIds: `tag ${UNKNOWN_ID} not found` },
      );
    });

    it('answers 422 for a default location that is not an entity of the group', async () => {
      await expectRefused(
        { name: 'L', defaultLocationId: 'garage' },
        { defaultLocationId: 'defaultLocationId must be a UUID' },
      );
      await expectRefused(
        { name: 'L', defaultLocationId: UNKNOWN_ID },
        { defaultLocationId: `entity ${UNKNOWN_ID} not found` },
      );
    });

    it('answers 422 for malformed fields, naming the field by its index', async () => {
      await expectRefused(
        { name: 'F', fields: { type: 'text', name: 'x' } },
        { fields: 'fields must be an array' },
      );
      await expectRefused(
        {
          name: 'F',
          fields: [
            { type: 'text', name: 'fine' },
            { type: 'date', name: '' },
            { type: 'text', name: 'long', textValue: 't'.repeat(501) },
            { type: 'number', name: 'fraction', numberValue: 1.5 },
            { type: 'number', name: 'huge', numberValue: 2 ** 53 },
            { type: 'boolean', name: 'text', booleanValue: 'true' },
            { type: 'number', name: 'tiny', numberValue: -(2 ** 53) },
          ],
        },
        {
          'fields.1.type': 'type must be one of the following values: text, number, boolean, time',
          'fields.1.name': 'name must be longer than or equal to 1 characters',
          'fields.2.textValue': 'textValue must be shorter than or equal to 500 characters',
          'fields.3.numberValue': 'numberValue must be an integer number',
          'fields.4.numberValue': 'numberValue must not be greater than 9007199254740991',
          'fields.5.booleanValue': 'booleanValue must be a boolean value',
          'fields.6.numberValue': 'numberValue must not be less than -9007199254740991',
        },
      );
    });

    it('answers 422 for a time value that is not an RFC 3339 timestamp', async () => {
      const message =
        'timeValue must be an RFC 3339 timestamp such as 2026-01-31T09:30:00Z, or null';
      for (const timeValue of ['yesterday', '2026-01-31', '2026-02-30T10:00:00Z', 1700000000]) {
        await expectRefused(
          { name: 'T', fields: [{ type: 'time', name: 'When', timeValue }] },
          { 'fields.0.timeValue': message },
        );
      }
    });

    it('answers 400 for malformed JSON and writes nothing', async () => {
      const before = await storedTemplates(app.trove, owner.groupId);
      const response = await as(app.trove, owner, 'post', TEMPLATES)
        .set('Content-Type', 'application/json')
        .send('{"name": "broken"');
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: expect.any(String) });
      expect(await storedTemplates(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token or with a bad one, and writes nothing', async () => {
      const before = await storedTemplates(app.trove, owner.groupId);
      await expectUnauthenticated(app.trove, 'post', TEMPLATES, { name: 'Anonymous' });
      expect(await storedTemplates(app.trove, owner.groupId)).toEqual(before);
    });

    it('refuses viewers with 403 and writes nothing', async () => {
      const before = await storedTemplates(app.trove, owner.groupId);
      const response = await create(viewer, { name: 'Viewer’s' });
      expect(response.status).toBe(403);
      expect(response.body).toEqual(VIEWER_ONLY_READS);
      expect(await storedTemplates(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('another group', () => {
    it('refuses another group’s location and tags with 422, writing nothing in either group', async () => {
      const mine = await storedTemplates(app.trove, owner.groupId);
      const theirs = await storedTemplates(app.trove, outsider.groupId);

      const location = await create(owner, {
        name: 'Foreign location',
        defaultLocationId: outsiderGarage.id,
      });
      expect(location.status).toBe(422);
      expect(location.body).toEqual(
        validationError({ defaultLocationId: `entity ${outsiderGarage.id} not found` }),
      );

      const tag = await create(owner, {
        name: 'Foreign tag',
        defaultTagIds: [ownTags.General.id, outsiderTags.General.id],
      });
      expect(tag.status).toBe(422);
      expect(tag.body).toEqual(
        validationError({ defaultTagIds: `tag ${outsiderTags.General.id} not found` }),
      );

      expect(await storedTemplates(app.trove, owner.groupId)).toEqual(mine);
      expect(await storedTemplates(app.trove, outsider.groupId)).toEqual(theirs);
    });

    it('creates in the caller’s group only: the other group neither lists nor reads it', async () => {
      const template = (await create(outsider, { name: 'Eve’s' }).expect(201)).body as TemplateBody;
      expect((await listTemplates(app.trove, outsider)).map((t) => t.id)).toContain(template.id);
      expect((await listTemplates(app.trove, owner)).map((t) => t.id)).not.toContain(template.id);
      const read = await as(app.trove, owner, 'get', `${TEMPLATES}/${template.id}`);
      expect(read.status).toBe(404);
      expect(read.body).toEqual({ error: `template ${template.id} not found` });
    });
  });
});
