import { labelLink } from '../core/label-link.js';
import { formatAssetId } from '../core/asset-id.js';

/**
 * The CSV export of a group's entities and its bill of materials (Homebox notes §17.1 and
 * §17.3): headers, and the stored values written as those files write them.
 */

/** The columns of the export, before one `HB.field.<name>` column per custom-field name. */
export const EXPORT_COLUMNS = [
  'HB.purchase_date',
  'HB.warranty_expires',
  'HB.sold_date',
  'HB.import_ref',
  'HB.parent_import_ref',
  'HB.url',
  'HB.name',
  'HB.description',
  'HB.notes',
  'HB.purchase_from',
  'HB.manufacturer',
  'HB.model_number',
  'HB.serial_number',
  'HB.warranty_details',
  'HB.sold_to',
  'HB.sold_notes',
  'HB.location',
  'HB.tags',
  'HB.asset_id',
  'HB.quantity',
  'HB.purchase_price',
  'HB.sold_price',
  'HB.archived',
  'HB.insured',
  'HB.lifetime_warranty',
] as const;

/** The columns of the bill of materials. */
export const BILL_OF_MATERIALS_COLUMNS = [
  'Purchase Date',
  'Name',
  'Description',
  'Manufacturer',
  'Serial Number',
  'Model Number',
  'Quantity',
  'Price',
  'Total Price',
] as const;

export const BILL_OF_MATERIALS_FILENAME = 'bill-of-materials.csv';

/** One entity as EXPORT_BATCH (entity-export.sql.ts) returns it. */
export interface EntityExportRow {
  id: string;
  isLocation: boolean;
  purchaseDate: string;
  warrantyExpires: string;
  soldDate: string;
  importRef: string;
  parentImportRef: string;
  name: string;
  description: string;
  notes: string;
  purchaseFrom: string;
  manufacturer: string;
  modelNumber: string;
  serialNumber: string;
  warrantyDetails: string;
  soldTo: string;
  soldNotes: string;
  location: string;
  tags: string;
  assetId: string;
  quantity: number;
  purchasePrice: string;
  soldPrice: string;
  archived: boolean;
  insured: boolean;
  lifetimeWarranty: boolean;
  /** Custom-field names and text values, in the entity's order of its fields. */
  fieldNames: string[];
  fieldTexts: string[];
}

/** One entity as BILL_OF_MATERIALS_BATCH returns it. */
export interface BillOfMaterialsRow {
  id: string;
  purchaseDate: string;
  name: string;
  description: string;
  manufacturer: string;
  serialNumber: string;
  modelNumber: string;
  quantity: number;
  price: string;
  totalPrice: string;
}

/** The header row of an export whose entities use these custom-field names (sorted). */
export const exportHeader = (fieldNames: readonly string[]): string[] => [
  ...EXPORT_COLUMNS,
  ...fieldNames.map((name) => `HB.field.${name}`),
];

/**
 * A number in its shortest plain decimal form: no exponent, no trailing zeros, no trailing
 * point (`12.50` → `12.5`, `3.0` → `3`, `1e+21` → `1000000000000000000000`, `-0` → `0`).
 * Takes a JavaScript number (written in its shortest round-trip form) or a decimal string as
 * PostgreSQL writes `numeric`; anything else is returned as it is.
 */
export function shortestDecimal(value: number | string): string {
  const text = String(value).trim();
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) return text;
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  const digits = whole + fraction;
  const point = whole.length + Number(exponent);
  let plain: string;
  if (point <= 0) plain = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) plain = digits + '0'.repeat(point - digits.length);
  else plain = `${digits.slice(0, point)}.${digits.slice(point)}`;
  plain = plain.replace(/^0+(?=\d)/, '');
  if (plain.includes('.')) plain = plain.replace(/0+$/, '').replace(/\.$/, '');
  return plain === '0' || sign !== '-' ? plain : `-${plain}`;
}

/** `<base>/location/<id>` for a location, `<base>/item/<id>` otherwise. */
export const entityUrl = (base: string, id: string, isLocation: boolean): string =>
  labelLink(base, { kind: isLocation ? 'location' : 'item', id });

/** The text of each of `names` among the entity's fields (the first of that name), or `""`. */
function fieldColumns(row: EntityExportRow, names: readonly string[]): string[] {
  if (names.length === 0) return [];
  const texts = new Map<string, string>();
  row.fieldNames.forEach((name, index) => {
    if (!texts.has(name)) texts.set(name, row.fieldTexts[index] ?? '');
  });
  return names.map((name) => texts.get(name) ?? '');
}

/** The cells of one entity under `exportHeader(fieldNames)`; `base` is the public base URL. */
export const toExportRecord = (
  row: EntityExportRow,
  fieldNames: readonly string[],
  base: string,
): string[] => [
  row.purchaseDate,
  row.warrantyExpires,
  row.soldDate,
  row.importRef,
  row.parentImportRef,
  entityUrl(base, row.id, row.isLocation),
  row.name,
  row.description,
  row.notes,
  row.purchaseFrom,
  row.manufacturer,
  row.modelNumber,
  row.serialNumber,
  row.warrantyDetails,
  row.soldTo,
  row.soldNotes,
  row.location,
  row.tags,
  formatAssetId(row.assetId),
  shortestDecimal(row.quantity),
  shortestDecimal(row.purchasePrice),
  shortestDecimal(row.soldPrice),
  String(row.archived),
  String(row.insured),
  String(row.lifetimeWarranty),
  ...fieldColumns(row, fieldNames),
];

/** The cells of one entity under BILL_OF_MATERIALS_COLUMNS. */
export const toBillOfMaterialsRecord = (row: BillOfMaterialsRow): string[] => [
  row.purchaseDate,
  row.name,
  row.description,
  row.manufacturer,
  row.serialNumber,
  row.modelNumber,
  shortestDecimal(row.quantity),
  shortestDecimal(row.price),
  shortestDecimal(row.totalPrice),
];

const pad = (value: number): string => String(value).padStart(2, '0');

/** `homebox-entities_<YYYY-MM-DD_HH-MM-SS>.csv`, the time in UTC. */
export function exportFilename(at: Date): string {
  const day = `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}`;
  const time = `${pad(at.getUTCHours())}-${pad(at.getUTCMinutes())}-${pad(at.getUTCSeconds())}`;
  return `homebox-entities_${day}_${time}.csv`;
}
