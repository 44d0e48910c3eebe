import type { FileProblem } from '../../../platform/errors/file-problems.exception.js';
import { parseCalendarDate } from '../../../platform/http/validation/calendar-date.js';
import { decimalPlaces } from '../../../platform/http/validation/decimal-number.decorator.js';
import { maxLengthOf } from '../../../platform/http/validation/dto-limits.js';
import { CreateTagDto } from '../../tags/dto/create-tag.dto.js';
import { readAssetId } from '../core/asset-id.js';
import { EntityFieldInputDto } from '../core/dto/entity-field-input.dto.js';
import { UpdateEntityDto } from '../core/dto/update-entity.dto.js';

/** The longest import ref an entity keeps (its column). */
export const MAX_IMPORT_REF_LENGTH = 100;

/** Prices keep at most four decimals, as the entity update requires. */
const MONEY_DECIMALS = 4;

type TextKey =
  | 'name'
  | 'description'
  | 'notes'
  | 'serialNumber'
  | 'modelNumber'
  | 'manufacturer'
  | 'warrantyDetails'
  | 'purchaseFrom'
  | 'soldTo'
  | 'soldNotes';
type DateKey = 'purchaseDate' | 'warrantyExpires' | 'soldDate';
type BooleanKey = 'insured' | 'archived' | 'lifetimeWarranty';
type NumberKey = 'quantity' | 'purchasePrice' | 'soldPrice';

/** The editable values of an entity a row sets; what a row leaves out is reset, as a full update. */
export interface ImportedValues {
  name: string;
  description: string;
  notes: string;
  serialNumber: string;
  modelNumber: string;
  manufacturer: string;
  warrantyDetails: string;
  purchaseFrom: string;
  soldTo: string;
  soldNotes: string;
  purchaseDate: string | null;
  warrantyExpires: string | null;
  soldDate: string | null;
  insured: boolean;
  archived: boolean;
  lifetimeWarranty: boolean;
  quantity: number;
  purchasePrice: number;
  soldPrice: number;
}

/** One data row, read and checked. */
export interface ImportRow {
  line: number;
  values: ImportedValues;
  importRef: string | null;
  parentImportRef: string | null;
  /** Names from the top-level location down; empty when the cell is. */
  location: string[];
  tags: string[];
  /** Custom text fields in the order of their columns, empty cells left out. */
  fields: { name: string; value: string }[];
  /** The row's asset id; null when the cell is empty or the column absent. */
  assetId: bigint | null;
  /** What the row's `HB.url` (as the export writes it) says the entity is; null: it does not say. */
  kind: 'item' | 'location' | null;
}

type Column =
  | { kind: 'text'; key: TextKey; header: string; max: number; required?: boolean }
  | { kind: 'date'; key: DateKey; header: string }
  | { kind: 'boolean'; key: BooleanKey; header: string }
  | { kind: 'number'; key: NumberKey; header: string; decimals?: number }
  | {
      kind: 'importRef' | 'parentImportRef' | 'location' | 'tags' | 'assetId' | 'url';
      header: string;
    }
  | { kind: 'field'; name: string; header: string }
  | { kind: 'ignored'; header: string };

type ColumnSpec = Column extends infer C ? (C extends Column ? Omit<C, 'header'> : never) : never;

const text = (key: TextKey, required = false): ColumnSpec => ({
  kind: 'text',
  key,
  max: maxLengthOf(UpdateEntityDto, key),
  required,
});

/**
 * The columns Homebox reads (§17.2) with their aliases; any other `HB.*` column is ignored. Of
 * `HB.url`, which the export writes as `<base>/item/<id>` or `<base>/location/<id>`, only that
 * kind is read: it keeps an exported location a location (even one nothing is in).
 */
const COLUMNS: Record<string, ColumnSpec> = {
  'HB.name': text('name', true),
  'HB.description': text('description'),
  'HB.notes': text('notes'),
  'HB.serial_number': text('serialNumber'),
  'HB.model_number': text('modelNumber'),
  'HB.manufacturer': text('manufacturer'),
  'HB.warranty_details': text('warrantyDetails'),
  'HB.purchase_from': text('purchaseFrom'),
  'HB.sold_to': text('soldTo'),
  'HB.sold_notes': text('soldNotes'),
  'HB.purchase_date': { kind: 'date', key: 'purchaseDate' },
  'HB.purchase_time': { kind: 'date', key: 'purchaseDate' },
  'HB.warranty_expires': { kind: 'date', key: 'warrantyExpires' },
  'HB.sold_date': { kind: 'date', key: 'soldDate' },
  'HB.sold_time': { kind: 'date', key: 'soldDate' },
  'HB.insured': { kind: 'boolean', key: 'insured' },
  'HB.archived': { kind: 'boolean', key: 'archived' },
  'HB.lifetime_warranty': { kind: 'boolean', key: 'lifetimeWarranty' },
  'HB.quantity': { kind: 'number', key: 'quantity' },
  'HB.purchase_price': { kind: 'number', key: 'purchasePrice', decimals: MONEY_DECIMALS },
  'HB.sold_price': { kind: 'number', key: 'soldPrice', decimals: MONEY_DECIMALS },
  'HB.import_ref': { kind: 'importRef' },
  'HB.parent_import_ref': { kind: 'parentImportRef' },
  'HB.location': { kind: 'location' },
  'HB.tags': { kind: 'tags' },
  'HB.labels': { kind: 'tags' },
  'HB.asset_id': { kind: 'assetId' },
  'HB.url': { kind: 'url' },
};

const FIELD_PREFIX = 'HB.field.';
const EXPORTED_URL =
  /\/(item|location)\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/?$/i;
const MAX_ENTITY_NAME = maxLengthOf(UpdateEntityDto, 'name');
const MAX_TAG_NAME = maxLengthOf(CreateTagDto, 'name');
const MAX_FIELD_NAME = maxLengthOf(EntityFieldInputDto, 'name');
const MAX_FIELD_VALUE = maxLengthOf(EntityFieldInputDto, 'textValue');

/** The header row, read: what each cell position holds. */
export interface ImportHeader {
  columns: Column[];
}

/** Reads the header row (line 1): every header must start with `HB.` and appear once. */
export function readHeader(cells: string[]): { header: ImportHeader; problems: FileProblem[] } {
  const problems: FileProblem[] = [];
  const seen = new Map<string, string>();
  const columns = cells.map((raw): Column => {
    const header = raw.trim();
    if (!header.startsWith('HB.')) {
      problems.push({
        line: 1,
        column: header,
        reason: 'a column header must start with HB. (is this a Homebox CSV file?)',
      });
      return { kind: 'ignored', header };
    }
    let column: Column;
    if (header.startsWith(FIELD_PREFIX)) {
      const name = header.slice(FIELD_PREFIX.length).trim();
      if (name === '' || name.length > MAX_FIELD_NAME) {
        problems.push({
          line: 1,
          column: header,
          reason: `a custom field name must have 1 to ${MAX_FIELD_NAME} characters`,
        });
      }
      column = { kind: 'field', name, header };
    } else {
      const spec = COLUMNS[header];
      column = spec ? { ...spec, header } : { kind: 'ignored', header };
    }
    if (column.kind !== 'ignored') {
      const identity = column.kind === 'field' ? `field:${column.name}` : columnIdentity(column);
      const earlier = seen.get(identity);
      if (earlier !== undefined) {
        problems.push({
          line: 1,
          column: header,
          reason: `the column says the same as ${earlier}, which comes before it`,
        });
      } else {
        seen.set(identity, header);
      }
    }
    return column;
  });
  return { header: { columns }, problems };
}

const columnIdentity = (column: Column): string =>
  'key' in column ? column.key : column.kind === 'field' ? column.name : column.kind;

/** Reads one data row against the header: the row, or what is wrong with it. */
export function readRow(
  header: ImportHeader,
  cells: string[],
  line: number,
): { row?: ImportRow; problems: FileProblem[] } {
  const problems: FileProblem[] = [];
  if (cells.length !== header.columns.length) {
    problems.push({
      line,
      column: null,
      reason: `the row has ${cells.length} ${cells.length === 1 ? 'cell' : 'cells'} but the header has ${header.columns.length}`,
    });
    return { problems };
  }
  const problem = (column: Column, reason: string): void => {
    problems.push({ line, column: column.header, reason });
  };
  const row: ImportRow = {
    line,
    values: emptyValues(),
    importRef: null,
    parentImportRef: null,
    location: [],
    tags: [],
    fields: [],
    assetId: null,
    kind: null,
  };
  let hasName = false;
  header.columns.forEach((column, index) => {
    const raw = cells[index];
    const cell = raw.trim();
    switch (column.kind) {
      case 'text':
        if (column.required) hasName = true;
        if (column.required && cell === '') problem(column, `${column.header} must not be empty`);
        else if (raw.length > column.max) {
          problem(column, `${column.header} must be at most ${column.max} characters`);
        }
        row.values[column.key] = column.required ? cell : raw;
        break;
      case 'date': {
        const date = parseImportDate(cell);
        if (date === undefined) {
          problem(
            column,
            `${quote(cell)} is not a date (YYYY-MM-DD, MM/DD/YYYY, YYYY/MM/DD or RFC 3339)`,
          );
        } else {
          row.values[column.key] = date;
        }
        break;
      }
      case 'boolean': {
        const value = parseImportBoolean(cell);
        if (value === undefined) {
          problem(column, `${quote(cell)} is not a boolean (true, false, 1, 0, t or f)`);
        } else {
          row.values[column.key] = value;
        }
        break;
      }
      case 'number': {
        const value = parseImportNumber(cell);
        if (value === undefined) problem(column, `${quote(cell)} is not a number`);
        else if (value < 0) problem(column, `${column.header} must not be negative`);
        else if (column.decimals !== undefined && decimalPlaces(value) > column.decimals) {
          problem(column, `${column.header} must have at most ${column.decimals} decimal places`);
        } else {
          row.values[column.key] = value;
        }
        break;
      }
      case 'importRef':
      case 'parentImportRef':
        if (cell.length > MAX_IMPORT_REF_LENGTH) {
          problem(column, `${column.header} must be at most ${MAX_IMPORT_REF_LENGTH} characters`);
        }
        row[column.kind] = cell === '' ? null : cell;
        break;
      case 'location':
        row.location = splitPath(cell);
        if (row.location.some((name) => name === '')) {
          problem(column, `${quote(cell)} has an empty name between its slashes`);
        } else if (row.location.some((name) => name.length > MAX_ENTITY_NAME)) {
          problem(column, `every location name must be at most ${MAX_ENTITY_NAME} characters`);
        }
        break;
      case 'tags':
        row.tags = [
          ...new Set(
            cell
              .split(';')
              .map((name) => name.trim())
              .filter((name) => name !== ''),
          ),
        ];
        if (row.tags.some((name) => name.length > MAX_TAG_NAME)) {
          problem(column, `every tag name must be at most ${MAX_TAG_NAME} characters`);
        }
        break;
      case 'assetId': {
        const reading = readAssetId(cell);
        if (reading.problem !== undefined) problem(column, reading.problem);
        else row.assetId = reading.value === 0n ? null : reading.value;
        break;
      }
      case 'url':
        row.kind = (EXPORTED_URL.exec(cell)?.[1]?.toLowerCase() as ImportRow['kind']) ?? null;
        break;
      case 'field':
        if (raw.length > MAX_FIELD_VALUE) {
          problem(column, `a custom field value must be at most ${MAX_FIELD_VALUE} characters`);
        }
        if (raw !== '') row.fields.push({ name: column.name, value: raw });
        break;
      case 'ignored':
        break;
    }
  });
  if (!hasName) problems.push({ line, column: 'HB.name', reason: 'HB.name must not be empty' });
  if (row.importRef !== null && row.importRef === row.parentImportRef) {
    problems.push({
      line,
      column: 'HB.parent_import_ref',
      reason: `the row names itself (${quote(row.importRef)}) as its parent`,
    });
  }
  return problems.length === 0 ? { row, problems } : { problems };
}

/** `A / B / C` → `['A', 'B', 'C']`; an empty cell → `[]`. */
export function splitPath(cell: string): string[] {
  return cell.trim() === '' ? [] : cell.split('/').map((name) => name.trim());
}

/** A path as a map key. */
export const pathKey = (names: readonly string[]): string => names.join('\u0000');

const SLASH_DATE = /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/;

/**
 * `YYYY-MM-DD`, `MM/DD/YYYY`, `YYYY/MM/DD` or RFC 3339 as `YYYY-MM-DD`; an empty cell is no date
 * (null); undefined when it is none of these.
 */
export function parseImportDate(cell: string): string | null | undefined {
  const match = SLASH_DATE.exec(cell);
  if (match)
    return parseCalendarDate(
      `${match[1]}-${match[2].padStart(2, '0')}-${match[3].padStart(2, '0')}`,
    );
  return parseCalendarDate(cell);
}

const TRUE = new Set(['true', 't', '1']);
const FALSE = new Set(['false', 'f', '0', '']);

/** `true/false/1/0/t/f` in any case; an empty cell is false; undefined for anything else. */
export function parseImportBoolean(cell: string): boolean | undefined {
  const value = cell.toLowerCase();
  if (TRUE.has(value)) return true;
  if (FALSE.has(value)) return false;
  return undefined;
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A finite decimal number; an empty cell is 0; undefined for anything else. */
export function parseImportNumber(cell: string): number | undefined {
  if (cell === '') return 0;
  if (!DECIMAL.test(cell)) return undefined;
  const value = Number(cell);
  return Number.isFinite(value) ? value : undefined;
}

const quote = (cell: string): string =>
  JSON.stringify(cell.length > 40 ? `${cell.slice(0, 40)}…` : cell);

/** The values of a row whose cells are all empty. */
export function emptyValues(): ImportedValues {
  return {
    name: '',
    description: '',
    notes: '',
    serialNumber: '',
    modelNumber: '',
    manufacturer: '',
    warrantyDetails: '',
    purchaseFrom: '',
    soldTo: '',
    soldNotes: '',
    purchaseDate: null,
    warrantyExpires: null,
    soldDate: null,
    insured: false,
    archived: false,
    lifetimeWarranty: false,
    quantity: 0,
    purchasePrice: 0,
    soldPrice: 0,
  };
}
