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

const PATH = '/api/v1/entities/export';
const BASE = 'https://inventory.example.com';

const FIXED_HEADER =
  'HB.purchase_date,HB.warranty_expires,HB.sold_date,HB.import_ref,HB.parent_import_ref,' +
  'HB.url,HB.name,HB.description,HB.notes,HB.purchase_from,HB.manufacturer,HB.model_number,' +
  'HB.serial_number,HB.warranty_details,HB.sold_to,HB.sold_notes,HB.location,HB.tags,' +
  'HB.asset_id,HB.quantity,HB.purchase_price,HB.sold_price,HB.archived,HB.insured,' +
  'HB.lifetime_warranty';
const COLUMNS = [...FIXED_HEADER.split(','), 'HB.field.Colour', 'HB.field.Voltage'];

/** One line of the seeded export: the given cells as written (quoted where they must be), the rest empty. */
function line(id: string, cells: Record<string, string>): { id: string; text: string } {
  for (const name of Object.keys(cells)) expect(COLUMNS).toContain(name);
  return { id, text: COLUMNS.map((name) => cells[name] ?? '').join(',') };
}

describe('GET /api/v1/entities/export', () => {
  const app = useTestApp({ TROVE_OPTIONS_HOSTNAME: 'inventory.example.com' });
  let owner: Session;
  let stranger: Session;
  let seed: ExportSeed;
  beforeAll(async () => {
    owner = await signUp(app.trove);
    stranger = await signUp(app.trove);
    seed = await seedExportGroup(app.trove, owner);
  });

  const exportOf = (session: Session, tenant?: string) =>
    as(app.trove, session, 'get', tenant ? `${PATH}?tenant=${tenant}` : PATH);

  it('writes every entity of the group (the group of ?tenant=) in the Homebox format', async () => {
    const response = await exportOf(owner, seed.groupId);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment;filename=homebox-entities_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.csv$/,
    );
    const fixed = { 'HB.purchase_price': '0', 'HB.sold_price': '0' };
    const flags = {
      'HB.archived': 'false',
      'HB.insured': 'false',
      'HB.lifetime_warranty': 'false',
    };
    const rows = byId([
      line(seed.house, {
        'HB.url': `${BASE}/location/${seed.house}`,
        'HB.name': 'House',
        'HB.asset_id': '000-001',
        'HB.quantity': '1',
        ...fixed,
        ...flags,
      }),
      line(seed.shelf, {
        'HB.url': `${BASE}/location/${seed.shelf}`,
        'HB.name': '"Garage, Shelf"',
        'HB.description': 'Left wall',
        'HB.location': 'House',
        'HB.asset_id': '000-002',
        'HB.quantity': '1',
        ...fixed,
        ...flags,
      }),
      line(seed.toolbox, {
        'HB.import_ref': 'box-1',
        'HB.url': `${BASE}/item/${seed.toolbox}`,
        'HB.name': 'Toolbox',
        'HB.manufacturer': 'Stanley',
        'HB.location': '"House / Garage, Shelf"',
        'HB.tags': 'Tools',
        'HB.asset_id': '000-003',
        'HB.quantity': '3',
        ...fixed,
        'HB.purchase_price': '0.1',
        ...flags,
        'HB.field.Colour': 'grey',
      }),
      line(seed.drill, {
        'HB.purchase_date': '2025-01-15',
        'HB.warranty_expires': '2028-05-31',
        'HB.import_ref': 'drill-1',
        'HB.parent_import_ref': 'box-1',
        'HB.url': `${BASE}/item/${seed.drill}`,
        'HB.name': '"Drill ""Pro"""',
        'HB.description': '"Cordless, 18 V"',
        'HB.notes': '"Line one\nLine two"',
        'HB.purchase_from': 'Hardware store',
        'HB.manufacturer': 'Bosch',
        'HB.model_number': 'DP-18',
        'HB.serial_number': 'SN-1',
        'HB.warranty_details': 'Two years',
        'HB.location': '"House / Garage, Shelf"',
        'HB.tags': 'electronics; Tools',
        'HB.asset_id': '000-004',
        'HB.quantity': '2.5',
        'HB.purchase_price': '19.99',
        'HB.sold_price': '0',
        'HB.archived': 'false',
        'HB.insured': 'true',
        'HB.lifetime_warranty': 'true',
        'HB.field.Colour': '"red, ""bright"""',
        'HB.field.Voltage': '18 V',
      }),
      line(seed.lamp, {
        'HB.sold_date': '2026-02-01',
        'HB.url': `${BASE}/item/${seed.lamp}`,
        'HB.name': 'Old lamp',
        'HB.sold_to': 'Neighbour',
        'HB.sold_notes': 'Cash',
        'HB.asset_id': '000-005',
        'HB.quantity': '1',
        'HB.purchase_price': '30',
        'HB.sold_price': '12.5',
        ...flags,
        'HB.archived': 'true',
      }),
    ]);
    expect(response.text).toBe(
      [`${FIXED_HEADER},HB.field.Colour,HB.field.Voltage`, ...rows.map((row) => row.text)]
        .map((text) => `${text}\n`)
        .join(''),
    );
  });

  it('answers the same for X-Tenant, and a group with no entities is the header alone', async () => {
    const byHeader = await exportOf(owner).set('X-Tenant', seed.groupId).expect(200);
    const byQuery = await exportOf(owner, seed.groupId).expect(200);
    expect(byHeader.text).toBe(byQuery.text);
    const empty = await createEmptyGroup(app.trove, owner, 'Empty');
    const response = await exportOf(owner, empty).expect(200);
    expect(response.text).toBe(`${FIXED_HEADER}\n`);
  });

  it('reads the entities in batches: thousands of rows, each once, in id order', async () => {
    const groupId = await createEmptyGroup(app.trove, owner, 'Bulk');
    const types = await entityTypes(app.trove, groupId);
    const ids = await insertItems(app.trove, groupId, types.item, 2345);
    const response = await exportOf(owner, groupId).expect(200);
    const rows = lines(response.text);
    expect(rows[0]).toBe(FIXED_HEADER);
    expect(rows.slice(1).map((row) => row.split(',')[5])).toEqual(
      byId(ids.map((id) => ({ id }))).map(({ id }) => `${BASE}/item/${id}`),
    );
  });

  it('is a read: a viewer of the group gets the same file as its owner', async () => {
    const viewer = await signUpMember(app.trove, owner, 'viewer');
    const mine = await exportOf(owner).expect(200);
    const theirs = await exportOf(viewer).expect(200);
    expect(theirs.text).toBe(mine.text);
    // The starter locations of the owner's group.
    expect(lines(theirs.text)).toHaveLength(1 + 8);
  });

  it('never shows another group’s entities, and refuses a group the caller is not in', async () => {
    const theirs = await exportOf(stranger).expect(200);
    for (const id of Object.values(seed)) expect(theirs.text).not.toContain(id);
    expect(lines(theirs.text)).toHaveLength(1 + 8);
    const refused = await exportOf(stranger, seed.groupId);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'user does not have access to the requested tenant' });
  });

  it('400 for a tenant that is not a UUID', async () => {
    const response = await exportOf(owner, 'not-a-group');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'invalid X-Tenant header format' });
  });

  it('needs a valid token', async () => {
    await expectUnauthenticated(app.trove, 'get', PATH);
  });
});
