import { describe, expect, it } from 'vitest';
import {
  exportFilename,
  exportHeader,
  shortestDecimal,
  toBillOfMaterialsRecord,
  toExportRecord,
  type EntityExportRow,
} from './entity-export.js';

describe('shortestDecimal', () => {
  it.each([
    [0, '0'],
    [-0, '0'],
    [1, '1'],
    [2.5, '2.5'],
    [0.1 + 0.2, '0.30000000000000004'],
    [1e21, '1000000000000000000000'],
    [1.5e-7, '0.00000015'],
    ['0', '0'],
    ['0.0000', '0'],
    ['12.50', '12.5'],
    ['100', '100'],
    ['100.000', '100'],
    ['-3.1400', '-3.14'],
    ['-0.00', '0'],
    ['007.10', '7.1'],
    ['1.5e+3', '1500'],
    ['NaN', 'NaN'],
  ])('writes %s as %s', (value, expected) => {
    expect(shortestDecimal(value)).toBe(expected);
  });
});

describe('exportFilename', () => {
  it('stamps the UTC date and time', () => {
    expect(exportFilename(new Date('2026-03-04T05:06:07.890Z'))).toBe(
      'homebox-entities_2026-03-04_05-06-07.csv',
    );
  });
});

describe('export records', () => {
  const row: EntityExportRow = {
    id: '11111111-2222-4333-8444-555555555555',
    isLocation: false,
    purchaseDate: '2025-01-02',
    warrantyExpires: '',
    soldDate: '',
    importRef: 'ref-1',
    parentImportRef: 'box',
    name: 'Drill',
    description: 'd',
    notes: 'n',
    purchaseFrom: 'shop',
    manufacturer: 'm',
    modelNumber: 'mn',
    serialNumber: 'sn',
    warrantyDetails: 'w',
    soldTo: '',
    soldNotes: '',
    location: 'House / Garage',
    tags: 'a; b',
    assetId: '123',
    quantity: 2,
    purchasePrice: '19.9900',
    soldPrice: '0',
    archived: false,
    insured: true,
    lifetimeWarranty: false,
    fieldNames: ['Voltage', 'Colour', 'Colour'],
    fieldTexts: ['18 V', 'red', 'blue'],
  };

  it('writes every column of the header, custom fields by name (the first of a name)', () => {
    const header = exportHeader(['Colour', 'Size', 'Voltage']);
    const record = toExportRecord(row, ['Colour', 'Size', 'Voltage'], 'https://hb.example');
    expect(record).toHaveLength(header.length);
    expect(Object.fromEntries(header.map((name, index) => [name, record[index]]))).toEqual({
      'HB.purchase_date': '2025-01-02',
      'HB.warranty_expires': '',
      'HB.sold_date': '',
      'HB.import_ref': 'ref-1',
      'HB.parent_import_ref': 'box',
      'HB.url': 'https://hb.example/item/11111111-2222-4333-8444-555555555555',
      'HB.name': 'Drill',
      'HB.description': 'd',
      'HB.notes': 'n',
      'HB.purchase_from': 'shop',
      'HB.manufacturer': 'm',
      'HB.model_number': 'mn',
      'HB.serial_number': 'sn',
      'HB.warranty_details': 'w',
      'HB.sold_to': '',
      'HB.sold_notes': '',
      'HB.location': 'House / Garage',
      'HB.tags': 'a; b',
      'HB.asset_id': '000-123',
      'HB.quantity': '2',
      'HB.purchase_price': '19.99',
      'HB.sold_price': '0',
      'HB.archived': 'false',
      'HB.insured': 'true',
      'HB.lifetime_warranty': 'false',
      'HB.field.Colour': 'red',
      'HB.field.Size': '',
      'HB.field.Voltage': '18 V',
    });
  });

  it('links a location to /location/<id>', () => {
    expect(toExportRecord({ ...row, isLocation: true }, [], 'https://hb.example')[5]).toBe(
      'https://hb.example/location/11111111-2222-4333-8444-555555555555',
    );
  });

  it('writes a bill of materials row', () => {
    expect(
      toBillOfMaterialsRecord({
        id: row.id,
        purchaseDate: '',
        name: 'Drill',
        description: 'd',
        manufacturer: 'm',
        serialNumber: 'sn',
        modelNumber: 'mn',
        quantity: 3,
        price: '0.1000',
        totalPrice: '0.3000',
      }),
    ).toEqual(['', 'Drill', 'd', 'm', 'sn', 'mn', '3', '0.1', '0.3']);
  });
});
