import { describe, expect, it } from 'vitest';
import type { EntityRecord } from '../entities/core/entity.record.js';
import { TemplateFieldRecord } from './template-field.record.js';
import {
  toTemplateField,
  toTemplateFieldStored,
  toTemplateListItem,
  toTemplateStored,
  toTemplateSummary,
} from './template.mapper.js';
import { TemplateRecord } from './template.record.js';

const TEMPLATE_ID = '11111111-1111-4111-8111-111111111111';
const LOCATION_ID = '22222222-2222-4222-8222-222222222222';
const TAG_ID = '33333333-3333-4333-8333-333333333333';

const field = (fields: Partial<TemplateFieldRecord>): TemplateFieldRecord =>
  Object.assign(new TemplateFieldRecord(), {
    id: '44444444-4444-4444-8444-444444444444',
    templateId: TEMPLATE_ID,
    name: 'Voltage',
    description: 'Nominal',
    type: 'number',
    textValue: 'V',
    // PostgreSQL returns a bigint as a decimal string.
    numberValue: '18',
    booleanValue: true,
    timeValue: null,
    position: 0,
    createdAt: new Date('2026-01-02T03:04:05.678Z'),
    updatedAt: new Date('2026-02-03T04:05:06.789Z'),
    ...fields,
  });

const record = (fields: Partial<TemplateRecord>): TemplateRecord =>
  Object.assign(new TemplateRecord(), {
    id: TEMPLATE_ID,
    groupId: '99999999-9999-4999-8999-999999999999',
    name: 'Drill',
    description: 'Drills',
    notes: 'Charge',
    defaultName: 'Drill {{counter}}',
    defaultDescription: 'A drill',
    defaultManufacturer: 'Makita',
    defaultModelNumber: 'DDF485',
    defaultQuantity: 2.5,
    defaultInsured: true,
    defaultLifetimeWarranty: false,
    defaultWarrantyDetails: 'Two years',
    defaultLocationId: null,
    defaultLocation: null,
    defaultTagIds: [TAG_ID],
    includePurchaseFields: true,
    includeSoldFields: false,
    includeWarrantyFields: true,
    fields: [],
    createdAt: new Date('2026-01-02T03:04:05.678Z'),
    updatedAt: new Date('2026-02-03T04:05:06.789Z'),
    ...fields,
  });

describe('template mapper', () => {
  it('lists a template with five members', () => {
    expect(toTemplateListItem(record({}))).toEqual({
      id: TEMPLATE_ID,
      name: 'Drill',
      description: 'Drills',
      createdAt: '2026-01-02T03:04:05.678Z',
      updatedAt: '2026-02-03T04:05:06.789Z',
    });
  });

  it('builds the summary view with the location, tags and fields, times as ISO or ""', () => {
    const location = { id: LOCATION_ID, name: 'Garage' } as EntityRecord;
    const when = new Date('2025-12-24T18:00:00.250Z');
    const summary = toTemplateSummary(
      record({
        defaultLocationId: LOCATION_ID,
        defaultLocation: location,
        fields: [field({}), field({ type: 'time', timeValue: when, numberValue: '0' })],
      }),
      [{ id: TAG_ID, name: 'Tools' }],
    );

    expect(summary).toEqual({
      id: TEMPLATE_ID,
      name: 'Drill',
      description: 'Drills',
      notes: 'Charge',
      createdAt: '2026-01-02T03:04:05.678Z',
      updatedAt: '2026-02-03T04:05:06.789Z',
      defaultName: 'Drill {{counter}}',
      defaultDescription: 'A drill',
      defaultManufacturer: 'Makita',
      defaultModelNumber: 'DDF485',
      defaultQuantity: 2.5,
      defaultInsured: true,
      defaultLifetimeWarranty: false,
      defaultWarrantyDetails: 'Two years',
      defaultLocation: { id: LOCATION_ID, name: 'Garage' },
      defaultTags: [{ id: TAG_ID, name: 'Tools' }],
      includePurchaseFields: true,
      includeSoldFields: false,
      includeWarrantyFields: true,
      fields: [
        {
          booleanValue: true,
          id: '44444444-4444-4444-8444-444444444444',
          name: 'Voltage',
          numberValue: 18,
          textValue: 'V',
          timeValue: '',
          type: 'number',
        },
        {
          booleanValue: true,
          id: '44444444-4444-4444-8444-444444444444',
          name: 'Voltage',
          numberValue: 0,
          textValue: 'V',
          timeValue: '2025-12-24T18:00:00.250Z',
          type: 'time',
        },
      ],
    });
  });

  it('shows no location as null and refuses records whose relations were not loaded', () => {
    expect(toTemplateSummary(record({}), []).defaultLocation).toBeNull();
    expect(() => toTemplateSummary(record({ fields: undefined }), [])).toThrow(
      `template ${TEMPLATE_ID}: fields were not loaded`,
    );
    expect(() =>
      toTemplateSummary(record({ defaultLocationId: LOCATION_ID, defaultLocation: undefined }), []),
    ).toThrow(`template ${TEMPLATE_ID}: defaultLocation was not loaded`);
  });

  it('builds the stored views in snake_case with the edges given', () => {
    const stored = toTemplateFieldStored(field({}));
    expect(stored).toEqual({
      id: '44444444-4444-4444-8444-444444444444',
      name: 'Voltage',
      description: 'Nominal',
      boolean_value: true,
      number_value: 18,
      text_value: 'V',
      time_value: '',
      type: 'number',
      created_at: '2026-01-02T03:04:05.678Z',
      updated_at: '2026-02-03T04:05:06.789Z',
      edges: {},
    });

    expect(toTemplateStored(record({}), { fields: [stored] })).toEqual({
      created_at: '2026-01-02T03:04:05.678Z',
      default_description: 'A drill',
      default_insured: true,
      default_lifetime_warranty: false,
      default_manufacturer: 'Makita',
      default_model_number: 'DDF485',
      default_name: 'Drill {{counter}}',
      default_quantity: 2.5,
      default_tag_ids: [TAG_ID],
      default_warranty_details: 'Two years',
      description: 'Drills',
      id: TEMPLATE_ID,
      include_purchase_fields: true,
      include_sold_fields: false,
      include_warranty_fields: true,
      name: 'Drill',
      notes: 'Charge',
      updated_at: '2026-02-03T04:05:06.789Z',
      edges: { fields: [stored] },
    });
    expect(toTemplateStored(record({})).edges).toEqual({});
  });

  it('turns the stored bigint of a number value into a number, up to ±(2^53 − 1)', () => {
    for (const value of [Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2_147_483_648]) {
      const stored = field({ numberValue: String(value) });
      expect(toTemplateField(stored).numberValue).toBe(value);
      expect(toTemplateFieldStored(stored).number_value).toBe(value);
    }
  });

  it('gives a field summary exactly seven members', () => {
    expect(Object.keys(toTemplateField(field({}))).sort()).toEqual([
      'booleanValue',
      'id',
      'name',
      'numberValue',
      'textValue',
      'timeValue',
      'type',
    ]);
  });
});
