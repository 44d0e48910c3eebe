import { beforeAll, describe, expect, it } from 'vitest';
import { as, useTestApp } from '../support/api.js';
import { expectUnauthenticated } from '../support/auth-expectations.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  byId,
  createEmptyGroup,
  entityTypes,
  insertItems,
  lines,
  seedExportGroup,
  type ExportSeed,
} from './export-helpers.js';

const PATH = '/api/v1/reporting/bill-of-materials';
const HEADER =
  'Purchase Date,Name,Description,Manufacturer,Serial Number,Model Number,Quantity,Price,Total Price';

describe('GET /api/v1/reporting/bill-of-materials', () => {
  const app = useTestApp();
  let owner: Session;
  let stranger: Session;
  let seed: ExportSeed;
  beforeAll(async () => {
    owner = await signUp(app.trove);
    stranger = await signUp(app.trove);
    seed = await seedExportGroup(app.trove, owner);
  });

  const billOf = (session: Session, tenant?: string) =>
    as(app.trove, session, 'get', tenant ? `${PATH}?tenant=${tenant}` : PATH);

  it('lists every entity of the group with price × quantity, locations and archived included', async () => {
    const response = await billOf(owner, seed.groupId);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename=bill-of-materials.csv',
    );
    const rows = byId([
      { id: seed.house, text: ',House,,,,,1,0,0' },
      { id: seed.shelf, text: ',"Garage, Shelf",Left wall,,,,1,0,0' },
      { id: seed.toolbox, text: ',Toolbox,,Stanley,,,3,0.1,0.3' },
      {
        id: seed.drill,
        text: '2025-01-15,"Drill ""Pro""","Cordless, 18 V",Bosch,SN-1,DP-18,2.5,19.99,49.975',
      },
      { id: seed.lamp, text: ',Old lamp,,,,,1,30,30' },
    ]);
    expect(response.text).toBe([HEADER, ...rows.map((row) => row.text)].join('\n') + '\n');
  });

  it('(the export, without a configured hostname, links to where the request came to)', async () => {
    const response = await as(
      app.trove,
      owner,
      'get',
      `/api/v1/entities/export?tenant=${seed.groupId}`,
    ).expect(200);
    const house = lines(response.text).find((row) => row.split(',')[6] === 'House');
    expect(house?.split(',')[5]).toBe(`${app.trove.baseUrl}/location/${seed.house}`);
  });

  it('is the header alone for a group with no entities', async () => {
    const empty = await createEmptyGroup(app.trove, owner, 'Empty');
    const response = await billOf(owner, empty).expect(200);
    expect(response.text).toBe(`${HEADER}\n`);
  });

  it('reads the entities in batches: thousands of rows, each once, in id order', async () => {
    const groupId = await createEmptyGroup(app.trove, owner, 'Bulk');
    const types = await entityTypes(app.trove, groupId);
    await insertItems(app.trove, groupId, types.item, 2345);
    const stored = await app.trove.query<{ id: string; name: string; quantity: number }>(
      'SELECT id, name, quantity FROM entities WHERE group_id = $1',
      [groupId],
    );
    const response = await billOf(owner, groupId).expect(200);
    expect(lines(response.text)).toEqual([
      HEADER,
      ...byId(stored).map(
        (row) => `,${row.name},,,,,${row.quantity},1.25,${String(row.quantity * 1.25)}`,
      ),
    ]);
  });

  it('is a read: a viewer of the group gets the same file as its owner', async () => {
    const viewer = await signUpMember(app.trove, owner, 'viewer');
    const mine = await billOf(owner).expect(200);
    const theirs = await billOf(viewer).expect(200);
    expect(theirs.text).toBe(mine.text);
    expect(lines(theirs.text)).toHaveLength(1 + 8);
  });

  it('never shows another group’s entities, and refuses a group the caller is not in', async () => {
    const theirs = await billOf(stranger).expect(200);
    expect(theirs.text).not.toContain('Toolbox');
    expect(lines(theirs.text)).toHaveLength(1 + 8);
    const refused = await billOf(stranger, seed.groupId);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'user does not have access to the requested tenant' });
  });

  it('400 for a tenant that is not a UUID', async () => {
    const response = await billOf(owner, 'not-a-group');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'invalid X-Tenant header format' });
  });

  it('needs a valid token', async () => {
    await expectUnauthenticated(app.trove, 'get', PATH);
  });
});
