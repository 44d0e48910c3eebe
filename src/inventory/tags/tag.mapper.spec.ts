import { describe, expect, it } from 'vitest';
import { toTagOut, toTagStored, toTagSummary } from './tag.mapper.js';
import { TagRecord } from './tag.record.js';

const record = (fields: Partial<TagRecord>): TagRecord =>
  Object.assign(new TagRecord(), {
    id: '11111111-1111-4111-8111-111111111111',
    groupId: '99999999-9999-4999-8999-999999999999',
    parentId: null,
    name: 'Tools',
    description: 'Hand tools',
    color: '#ff8800',
    icon: 'mdi-hammer',
    createdAt: new Date('2026-01-02T03:04:05.678Z'),
    updatedAt: new Date('2026-02-03T04:05:06.789Z'),
    ...fields,
  });

describe('tag mapper', () => {
  it('builds the summary view with ISO times, a null parentId for a root and no group id', () => {
    expect(toTagSummary(record({}))).toEqual({
      id: '11111111-1111-4111-8111-111111111111',
      name: 'Tools',
      description: 'Hand tools',
      color: '#ff8800',
      icon: 'mdi-hammer',
      parentId: null,
      createdAt: '2026-01-02T03:04:05.678Z',
      updatedAt: '2026-02-03T04:05:06.789Z',
    });
  });

  it('keeps the parent id of a nested tag and adds parent and children to the full view', () => {
    const parent = record({ id: '22222222-2222-4222-8222-222222222222', name: 'Workshop' });
    const child = record({ id: '33333333-3333-4333-8333-333333333333', name: 'Saws' });
    const tag = record({ parentId: parent.id });

    expect(toTagOut(tag, parent, [child])).toEqual({
      ...toTagSummary(tag),
      parentId: parent.id,
      parent: toTagSummary(parent),
      children: [toTagSummary(child)],
    });
    expect(toTagOut(record({}), null, [])).toMatchObject({ parent: null, children: [] });
  });

  it('builds the stored view in snake_case with empty edges unless given', () => {
    const stored = toTagStored(record({ parentId: '22222222-2222-4222-8222-222222222222' }));
    expect(stored).toEqual({
      color: '#ff8800',
      created_at: '2026-01-02T03:04:05.678Z',
      description: 'Hand tools',
      icon: 'mdi-hammer',
      id: '11111111-1111-4111-8111-111111111111',
      name: 'Tools',
      updated_at: '2026-02-03T04:05:06.789Z',
      edges: {},
    });
    const parent = toTagStored(record({ name: 'Workshop' }));
    expect(toTagStored(record({}), { edges: { parent } }).edges).toEqual({ parent });
  });
});
