import { describe, expect, it } from 'vitest';
import type { TemplateRecord } from '../templates/template.record.js';
import type { EntityTypeRecord } from './entity-type.record.js';
import { toEntityTypeStored, toEntityTypeSummary } from './entity-type.mapper.js';

const created = new Date('2026-01-02T03:04:05.678Z');
const updated = new Date('2026-02-03T04:05:06.789Z');

const template = {
  id: 'template-1',
  groupId: 'group-1',
  name: 'Tool kit',
  description: 'Drills and bits',
  createdAt: created,
  updatedAt: updated,
} as TemplateRecord;

const record = (fields: Partial<EntityTypeRecord> = {}): EntityTypeRecord => ({
  id: 'type-1',
  groupId: 'group-1',
  name: 'Drill',
  description: 'Power tools',
  icon: 'mdi-drill',
  isLocation: false,
  defaultTemplateId: null,
  createdAt: created,
  updatedAt: updated,
  ...fields,
});

describe('toEntityTypeSummary', () => {
  it('shows an unset default template as "" and null', () => {
    expect(toEntityTypeSummary(record())).toEqual({
      id: 'type-1',
      name: 'Drill',
      description: 'Power tools',
      icon: 'mdi-drill',
      isLocation: false,
      defaultTemplateId: '',
      defaultTemplate: null,
      createdAt: '2026-01-02T03:04:05.678Z',
      updatedAt: '2026-02-03T04:05:06.789Z',
    });
  });

  it('shows a set default template by id and as a small object', () => {
    const summary = toEntityTypeSummary(
      record({ isLocation: true, defaultTemplateId: template.id, defaultTemplate: template }),
    );
    expect(summary).toMatchObject({
      isLocation: true,
      defaultTemplateId: 'template-1',
      defaultTemplate: {
        id: 'template-1',
        name: 'Tool kit',
        description: 'Drills and bits',
        createdAt: '2026-01-02T03:04:05.678Z',
        updatedAt: '2026-02-03T04:05:06.789Z',
      },
    });
    expect(Object.keys(summary.defaultTemplate ?? {}).sort()).toEqual([
      'createdAt',
      'description',
      'id',
      'name',
      'updatedAt',
    ]);
  });

  it('refuses a record whose default template was not loaded', () => {
    expect(() => toEntityTypeSummary(record({ defaultTemplateId: template.id }))).toThrow(
      'entity type type-1: defaultTemplate was not loaded',
    );
  });
});

describe('toEntityTypeStored', () => {
  it('writes snake_case fields with empty edges by default', () => {
    expect(toEntityTypeStored(record({ isLocation: true }))).toEqual({
      created_at: '2026-01-02T03:04:05.678Z',
      description: 'Power tools',
      icon: 'mdi-drill',
      id: 'type-1',
      is_location: true,
      name: 'Drill',
      updated_at: '2026-02-03T04:05:06.789Z',
      edges: {},
    });
  });

  it('carries the edges it is given', () => {
    const edges = { default_template: { id: 'template-1' } };
    const stored = toEntityTypeStored(record(), edges);
    expect(stored.edges).toEqual({ default_template: { id: 'template-1' } });
    expect(stored.edges).not.toBe(edges);
  });
});
