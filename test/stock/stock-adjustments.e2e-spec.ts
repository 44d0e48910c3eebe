import { beforeAll, describe, expect, it } from 'vitest';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  createEntity,
  expectUnauthenticated,
  putStock,
  UNKNOWN_ID,
  useTestApp,
  validation,
  VIEWER_ONLY_READS,
} from './stock-helpers.js';

const adjustmentsPath = (entityId: string): string =>
  `/api/v1/entities/${entityId}/stock/adjustments`;

const ADJUSTMENT_KEYS = [
  'createdAt',
  'entityId',
  'id',
  'quantityAfter',
  'quantityBefore',
  'reason',
];

describe('POST /api/v1/entities/{id}/stock/adjustments', () => {
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

  const adjust = (session: Session, id: string, body: Record<string, unknown>) =>
    as(app.trove, session, 'post', adjustmentsPath(id)).send(body);

  /** What an adjustment may change: the entity's quantity, its adjustments and its history. */
  const stored = async (entityId: string) => ({
    quantity: (
      await app.trove.query<{ quantity: number }>('SELECT quantity FROM entities WHERE id = $1', [
        entityId,
      ])
    )[0]?.quantity,
    adjustments: await app.trove.query(
      'SELECT * FROM stock_adjustments WHERE entity_id = $1 ORDER BY created_at',
      [entityId],
    ),
    history: await app.trove.query('SELECT id FROM entity_history WHERE entity_id = $1', [
      entityId,
    ]),
  });

  it('sets the quantity, keeps the reason and answers 201 with the adjustment', async () => {
    const coffee = await createEntity(app.trove, owner, { name: 'Coffee', quantity: 5 });

    const response = await adjust(member, coffee.id, { quantity: 3, reason: ' used two ' });

    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(String),
      entityId: coffee.id,
      quantityBefore: 5,
      quantityAfter: 3,
      reason: 'used two',
      createdAt: expect.any(String),
    });
    expect(Object.keys(response.body).sort()).toEqual(ADJUSTMENT_KEYS);
    const body = response.body as { id: string; createdAt: string };
    const [row] = await app.trove.query(
      `SELECT group_id, entity_id, quantity_before, quantity_after, reason, created_at
         FROM stock_adjustments WHERE id = $1`,
      [body.id],
    );
    expect(row).toEqual({
      group_id: owner.groupId,
      entity_id: coffee.id,
      quantity_before: 5,
      quantity_after: 3,
      reason: 'used two',
      created_at: new Date(body.createdAt),
    });
    const entity = await as(app.trove, owner, 'get', `/api/v1/entities/${coffee.id}`).expect(200);
    expect((entity.body as { quantity: number }).quantity).toBe(3);
  });

  it('changes the quantity by an amount, and the history holds the change with its reason', async () => {
    const tea = await createEntity(app.trove, owner, { name: 'Tea', quantity: 2 });

    const added = await adjust(owner, tea.id, { change: 4, reason: 'bought a box' }).expect(201);
    expect(added.body).toMatchObject({ quantityBefore: 2, quantityAfter: 6 });
    const taken = await adjust(owner, tea.id, { change: -1.5, reason: 'spilt' }).expect(201);
    expect(taken.body).toMatchObject({ quantityBefore: 6, quantityAfter: 4.5, reason: 'spilt' });

    const history = await as(app.trove, owner, 'get', `/api/v1/entities/${tea.id}/history`).expect(
      200,
    );
    const [latest] = (history.body as { items: { operation: string; changes: unknown[] }[] }).items;
    expect(latest.operation).toBe('POST /api/v1/entities/{id}/stock/adjustments');
    expect(latest.changes).toEqual(
      expect.arrayContaining([
        { field: 'quantity', before: 6, after: 4.5 },
        {
          field: `stock.adjustments.${(taken.body as { id: string }).id}`,
          before: null,
          after: { quantityBefore: 6, quantityAfter: 4.5, reason: 'spilt' },
        },
      ]),
    );
    expect(latest.changes).toHaveLength(2);
  });

  it('takes a retry with the same Idempotency-Key once', async () => {
    const rice = await createEntity(app.trove, owner, { name: 'Rice', quantity: 5 });
    const send = () =>
      as(app.trove, owner, 'post', adjustmentsPath(rice.id))
        .set('Idempotency-Key', `rice-${rice.id}`)
        .send({ change: -2, reason: 'dinner' });

    const first = await send().expect(201);
    const again = await send().expect(201);

    expect(again.body).toEqual(first.body);
    expect((await stored(rice.id)).quantity).toBe(3);
    expect((await stored(rice.id)).adjustments).toHaveLength(1);
  });

  it('brings the entity onto the low-stock list and alerts once it reaches its minimum', async () => {
    const milk = await createEntity(app.trove, owner, { name: 'Milk', quantity: 4 });
    await putStock(app.trove, owner, milk.id, { minQuantity: 2 });

    await adjust(owner, milk.id, { change: -2, reason: 'breakfast' }).expect(201);

    const low = await as(app.trove, owner, 'get', '/api/v1/stock/low').expect(200);
    expect((low.body as { id: string }[]).map((item) => item.id)).toContain(milk.id);
    const [flag] = await app.trove.query(
      'SELECT low_alerted FROM entity_stock WHERE entity_id = $1',
      [milk.id],
    );
    expect(flag).toEqual({ low_alerted: true });
  });

  it('answers 422 naming each bad field and writes nothing', async () => {
    const jam = await createEntity(app.trove, owner, { name: 'Jam', quantity: 1 });
    const before = await stored(jam.id);

    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [
        { quantity: 2 },
        { reason: 'reason must be longer than or equal to 1 characters; reason must be a string' },
      ],
      [
        { quantity: 2, reason: '   ' },
        { reason: 'reason must be longer than or equal to 1 characters' },
      ],
      [
        { quantity: 2, reason: 'r'.repeat(501) },
        { reason: 'reason must be shorter than or equal to 500 characters' },
      ],
      [{ reason: 'why' }, { quantity: 'give quantity or change' }],
      [{ quantity: -1, reason: 'why' }, { quantity: 'quantity must not be less than 0' }],
      [
        { quantity: '2', reason: 'why' },
        {
          quantity:
            'quantity must not be greater than 1000000000; quantity must not be less than 0; ' +
            'quantity must be a number conforming to the specified constraints',
        },
      ],
      [
        { quantity: null, reason: 'why' },
        { quantity: expect.stringContaining('quantity must be a number') },
      ],
      [{ change: 0, reason: 'why' }, { change: 'change must not be 0' }],
      [
        { quantity: 1, change: 1, reason: 'why' },
        { change: 'give either quantity or change, not both' },
      ],
      [
        { change: -2, reason: 'why' },
        { change: 'change would take the quantity below 0 (it is 1)' },
      ],
    ];
    for (const [body, fields] of cases) {
      const response = await adjust(owner, jam.id, body);
      expect({ body, status: response.status, response: response.body }).toEqual({
        body,
        status: 422,
        response: validation(fields),
      });
    }
    expect(await stored(jam.id)).toEqual(before);
  });

  it('answers 401 without a token and with a bad token, writing nothing', async () => {
    const jam = await createEntity(app.trove, owner, { name: 'Jam', quantity: 1 });
    const before = await stored(jam.id);
    await expectUnauthenticated(app.trove, 'post', adjustmentsPath(jam.id), {
      quantity: 0,
      reason: 'why',
    });
    expect(await stored(jam.id)).toEqual(before);
  });

  it('answers 403 to a viewer, 404 to another group and for an unknown id, writing nothing', async () => {
    const jam = await createEntity(app.trove, owner, { name: 'Jam', quantity: 1 });
    const before = await stored(jam.id);

    const byViewer = await adjust(viewer, jam.id, { quantity: 0, reason: 'why' });
    expect(byViewer.status).toBe(403);
    expect(byViewer.body).toEqual(VIEWER_ONLY_READS);

    const byOutsider = await adjust(outsider, jam.id, { quantity: 0, reason: 'why' });
    expect(byOutsider.status).toBe(404);
    expect(byOutsider.body).toEqual({ error: `entity ${jam.id} not found` });

    const unknown = await adjust(owner, UNKNOWN_ID, { quantity: 0, reason: 'why' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: `entity ${UNKNOWN_ID} not found` });

    expect(await stored(jam.id)).toEqual(before);
    expect(
      await app.trove.query('SELECT 1 FROM stock_adjustments WHERE group_id = $1', [
        outsider.groupId,
      ]),
    ).toEqual([]);
  });
});
