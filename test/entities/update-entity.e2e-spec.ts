import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useSharedApp } from '../support/api.js';
import { signUpMember, type Session } from '../support/factories.js';
import { expectUnauthenticated } from '../support/auth-expectations.js';
import { createEntity, expectSummaryShape, locationId, tagId, typeId } from './entity-helpers.js';

describe('PUT /api/v1/entities/{id}', () => {
  const t = useSharedApp();

  const auth = (session: Session) => ({ Authorization: session.authorization });

  it('PUT replaces everything given and resets what is omitted, keeping the type', async () => {
    const garage = await locationId(t.trove, t.owner, 'Garage');
    const tag = await tagId(t.trove, t.owner, 'Important');
    const entity = await createEntity(t.trove, t.owner, {
      name: 'Saw',
      parentId: garage,
      tagIds: [tag],
      quantity: 3,
      manufacturer: 'Bosch',
    });
    const full = await t.trove.http
      .put(`/api/v1/entities/${entity.id}`)
      .set(auth(t.owner))
      .send({
        name: 'Circular saw',
        description: 'For wood',
        quantity: 1.5,
        parentId: garage,
        tagIds: [tag],
        assetId: '000-777',
        serialNumber: 'SN1',
        modelNumber: 'M1',
        manufacturer: 'Makita',
        insured: true,
        archived: false,
        lifetimeWarranty: true,
        warrantyExpires: '2030-01-31',
        warrantyDetails: 'Keep the box',
        purchaseDate: '03/15/2026',
        purchaseFrom: 'Hardware store',
        purchasePrice: 129.99,
        soldDate: null,
        soldTo: '',
        soldPrice: 0,
        soldNotes: '',
        notes: 'Blade changed',
        syncChildEntityLocations: true,
        fields: [
          { type: 'text', name: 'Colour', textValue: 'teal' },
          { type: 'number', name: 'Teeth', numberValue: 24 },
          { type: 'boolean', name: 'Corded', booleanValue: false },
        ],
      })
      .expect(200);
    expectSummaryShape(full.body);
    expect(full.body).toMatchObject({
      name: 'Circular saw',
      quantity: 1.5,
      assetId: '000-777',
      insured: true,
      lifetimeWarranty: true,
      warrantyExpires: '2030-01-31',
      purchaseDate: '2026-03-15',
      purchasePrice: 129.99,
      totalPrice: 194.985,
      notes: 'Blade changed',
      syncChildEntityLocations: true,
      entityType: { name: 'Item' },
    });
    expect(full.body.fields).toEqual([
      {
        id: expect.any(String),
        type: 'text',
        name: 'Colour',
        textValue: 'teal',
        numberValue: 0,
        booleanValue: false,
      },
      {
        id: expect.any(String),
        type: 'number',
        name: 'Teeth',
        textValue: '',
        numberValue: 24,
        booleanValue: false,
      },
      {
        id: expect.any(String),
        type: 'boolean',
        name: 'Corded',
        textValue: '',
        numberValue: 0,
        booleanValue: false,
      },
    ]);

    const colour = full.body.fields[0].id as string;
    const minimal = await t.trove.http
      .put(`/api/v1/entities/${entity.id}`)
      .set(auth(t.owner))
      .send({
        name: 'Saw',
        fields: [{ id: colour, type: 'text', name: 'Colour', textValue: 'red' }],
      })
      .expect(200);
    expect(minimal.body).toMatchObject({
      name: 'Saw',
      description: '',
      quantity: 0,
      parent: null,
      tags: [],
      assetId: '',
      insured: false,
      purchaseDate: '',
      purchasePrice: 0,
      manufacturer: '',
      entityType: { name: 'Item' },
      fields: [{ id: colour, name: 'Colour', textValue: 'red' }],
    });
  });

  it('PUT refuses bad input, loops and foreign references, changing nothing', async () => {
    const box = await createEntity(t.trove, t.owner, { name: 'Box' });
    const inner = await createEntity(t.trove, t.owner, { name: 'Inner', parentId: box.id });
    const before = await t.trove.http.get(`/api/v1/entities/${box.id}`).set(auth(t.owner));
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'name'],
      [{ name: 'Box', purchaseDate: 'yesterday' }, 'purchaseDate'],
      [{ name: 'Box', purchasePrice: -3 }, 'purchasePrice'],
      [{ name: 'Box', assetId: 'abc' }, 'assetId'],
      [{ name: 'Box', parentId: box.id }, 'parentId'],
      [{ name: 'Box', parentId: inner.id }, 'parentId'],
      [{ name: 'Box', parentId: await locationId(t.trove, t.stranger, 'Garage') }, 'parentId'],
      [{ name: 'Box', tagIds: [await tagId(t.trove, t.stranger, 'IOT')] }, 'tagIds'],
      [{ name: 'Box', entityTypeId: await typeId(t.trove, t.stranger, 'Item') }, 'entityTypeId'],
      [{ name: 'Box', fields: [{ type: 'colour', name: '' }] }, 'fields.0.type'],
      [{ name: 'Box', fields: [{ id: randomUUID(), type: 'text', name: 'x' }] }, 'fields.0.id'],
      [
        { name: 'Box', fields: [{ type: 'number', name: 'n', numberValue: 2 ** 53 }] },
        'fields.0.numberValue',
      ],
      [
        { name: 'Box', fields: [{ type: 'number', name: 'n', numberValue: -(2 ** 53) }] },
        'fields.0.numberValue',
      ],
      [
        { name: 'Box', fields: [{ type: 'number', name: 'n', numberValue: 1.5 }] },
        'fields.0.numberValue',
      ],
    ];
    for (const [body, field] of cases) {
      const response = await t.trove.http
        .put(`/api/v1/entities/${box.id}`)
        .set(auth(t.owner))
        .send(body);
      expect([JSON.stringify(body), response.status]).toEqual([JSON.stringify(body), 422]);
      expect(Object.keys(response.body.fields)).toContain(field);
    }
    const after = await t.trove.http.get(`/api/v1/entities/${box.id}`).set(auth(t.owner));
    expect(after.body).toEqual(before.body);
    await t.trove.http
      .put(`/api/v1/entities/${box.id}`)
      .set(auth(t.stranger))
      .send({ name: 'Mine now' })
      .expect(404);
  });

  it('PUT keeps the custom fields in the order last sent, also in a duplicate', async () => {
    const entity = await createEntity(t.trove, t.owner, { name: 'Camera' });
    const put = (fields: object[]) =>
      t.trove.http
        .put(`/api/v1/entities/${entity.id}`)
        .set(auth(t.owner))
        .send({ name: 'Camera', fields })
        .expect(200);
    const first = await put(
      ['Zoom', 'aperture', 'Body', 'Mount'].map((name) => ({ type: 'text', name })),
    );
    const names = (body: { fields: { name: string }[] }) => body.fields.map((field) => field.name);
    expect(names(first.body)).toEqual(['Zoom', 'aperture', 'Body', 'Mount']);

    const [zoom, aperture, , mount] = first.body.fields as { id: string; name: string }[];
    const second = await put([
      { id: mount.id, type: 'text', name: 'Mount' },
      { type: 'text', name: 'Added' },
      { id: zoom.id, type: 'text', name: 'Zoom' },
      { id: aperture.id, type: 'text', name: 'aperture' },
    ]);
    expect(names(second.body)).toEqual(['Mount', 'Added', 'Zoom', 'aperture']);
    expect(second.body.fields.map((field: { id: string }) => field.id)).toEqual([
      mount.id,
      expect.any(String),
      zoom.id,
      aperture.id,
    ]);
    const read = await t.trove.http
      .get(`/api/v1/entities/${entity.id}`)
      .set(auth(t.owner))
      .expect(200);
    expect(read.body.fields).toEqual(second.body.fields);

    const copy = await t.trove.http
      .post(`/api/v1/entities/${entity.id}/duplicate`)
      .set(auth(t.owner))
      .send({ copyCustomFields: true })
      .expect(201);
    expect(names(copy.body)).toEqual(['Mount', 'Added', 'Zoom', 'aperture']);
  });

  it('PUT keeps number values up to ±(2^53 − 1), beyond 32 bits', async () => {
    const entity = await createEntity(t.trove, t.owner, { name: 'Odometer' });
    const numbers = [
      Number.MAX_SAFE_INTEGER,
      -Number.MAX_SAFE_INTEGER,
      2_147_483_648,
      -2_147_483_649,
    ];
    const response = await t.trove.http
      .put(`/api/v1/entities/${entity.id}`)
      .set(auth(t.owner))
      .send({
        name: 'Odometer',
        fields: numbers.map((numberValue, index) => ({
          type: 'number',
          name: `N${index}`,
          numberValue,
        })),
      })
      .expect(200);
    const expected = numbers.map((numberValue, index) => ({
      id: expect.any(String),
      type: 'number',
      name: `N${index}`,
      textValue: '',
      numberValue,
      booleanValue: false,
    }));
    expect(response.body.fields).toEqual(expected);
    const read = await t.trove.http
      .get(`/api/v1/entities/${entity.id}`)
      .set(auth(t.owner))
      .expect(200);
    expect(read.body.fields).toEqual(expected);
  });

  it('PUT adds a field whose id is the zero UUID, "" or null', async () => {
    const entity = await createEntity(t.trove, t.owner, { name: 'Kettle' });
    const response = await t.trove.http
      .put(`/api/v1/entities/${entity.id}`)
      .set(auth(t.owner))
      .send({
        name: 'Kettle',
        fields: [
          { id: '00000000-0000-0000-0000-000000000000', type: 'text', name: 'Zero' },
          { id: '', type: 'text', name: 'Empty' },
          { id: null, type: 'text', name: 'Null' },
        ],
      })
      .expect(200);
    const ids = response.body.fields.map((field: { id: string }) => field.id);
    expect(response.body.fields.map((field: { name: string }) => field.name)).toEqual([
      'Zero',
      'Empty',
      'Null',
    ]);
    expect(new Set(ids).size).toBe(3);
    expect(ids).not.toContain('00000000-0000-0000-0000-000000000000');
  });

  it('needs a valid token, refuses viewers, and changes nothing', async () => {
    const viewer = await signUpMember(t.trove, t.owner, 'viewer');
    const entity = await createEntity(t.trove, t.owner, { name: 'Guarded' });
    await expectUnauthenticated(t.trove, 'put', `/api/v1/entities/${entity.id}`, { name: 'x' });
    await t.trove.http
      .put(`/api/v1/entities/${entity.id}`)
      .set(auth(viewer))
      .send({ name: 'x' })
      .expect(403);
    await t.trove.http
      .put(`/api/v1/entities/${entity.id}`)
      .set(auth(t.stranger))
      .send({ name: 'x' })
      .expect(404, { error: `entity ${entity.id} not found` });
    const read = await t.trove.http.get(`/api/v1/entities/${entity.id}`).set(auth(t.owner));
    expect(read.body).toMatchObject({ name: 'Guarded', quantity: 1 });
  });
});
