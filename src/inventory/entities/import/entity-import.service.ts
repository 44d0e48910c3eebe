import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import type { StagedUpload } from '../../../platform/http/upload/staged-upload.engine.js';
import type { AuthUser } from '../../../identity/auth/auth-user.js';
import {
  FileProblemsException,
  type FileProblem,
} from '../../../platform/errors/file-problems.exception.js';
import { ValidationFailedException } from '../../../platform/errors/validation-failed.exception.js';
import { EntityTypesService } from '../../entity-types/entity-types.service.js';
import { MAX_ASSET_ID } from '../core/asset-id.js';
import { ChangeEvents } from '../../../platform/change-events/change-events.service.js';
import { TagsService } from '../../tags/tags.service.js';
import {
  EntityImportRepository,
  type ImportedColumns,
  type ImportedInsert,
  type ImportedUpdate,
} from './entity-import.repository.js';
import { CsvSyntaxError, detectDelimiter, readCsv } from './csv-reader.js';
import {
  emptyValues,
  pathKey,
  readHeader,
  readRow,
  type ImportHeader,
  type ImportRow,
  type ImportedValues,
} from './import-columns.js';

/** The form field that carries the file. */
export const IMPORT_FILE_FIELD = 'csv';

/** How many problems a 422 lists; the count says how many there were in all. */
export const MAX_LISTED_PROBLEMS = 100;

/** Rows written per statement. */
const BATCH_ROWS = 1000;

/** Ids per lookup statement. */
const LOOKUP_CHUNK = 10_000;

/** The problems found so far: the first MAX_LISTED_PROBLEMS kept, all counted. */
class ProblemList {
  readonly listed: FileProblem[] = [];
  count = 0;

  add(...problems: FileProblem[]): void {
    for (const problem of problems) {
      this.count += 1;
      if (this.listed.length < MAX_LISTED_PROBLEMS) this.listed.push(problem);
    }
  }

  /** Throws the 422 if there is anything to report. */
  throwIfAny(): void {
    if (this.count === 0) return;
    const sorted = [...this.listed].sort((a, b) => a.line - b.line);
    throw new FileProblemsException(IMPORT_FILE_FIELD, sorted, this.count);
  }
}

/** What the checking pass learnt about a file, for the writing pass. Compact: no rows kept. */
interface ImportPlan {
  delimiter: string;
  header: ImportHeader;
  /** Import refs the file gives, with their line. */
  refs: Map<string, number>;
  /** The parent each row with an import ref names. */
  parentOfRef: Map<string, string>;
  /** Parent refs the file names, with the first line naming each. */
  parentRefs: Map<string, number>;
  /** Every location path the rows name, and every path above those, by key. */
  locationPaths: Map<string, string[]>;
  /** The rows that describe a location path themselves (own path = location + name), by key. */
  ownPaths: Map<string, { line: number; importRef: string | null; repeatedOn?: number }>;
  /** What the rows that say so (by their `HB.url`) are, by own path. */
  kinds: Map<string, 'item' | 'location'>;
  /**
   * Rows with an empty location that do not say what they are: valid only when they describe a
   * top-level location.
   */
  withoutLocation: { line: number; key: string }[];
  tagNames: Set<string>;
  /** The highest asset id the file gives. */
  maxAssetId: bigint;
}

/** Where the writing pass puts each location path: the entity that is that location. */
type LocationIds = Map<string, string>;

/**
 * Imports entities from a Homebox CSV file (§17.2) into the caller's group, all or nothing.
 * A first pass reads the file as a stream and checks every row, collecting every problem;
 * only a file without any is written, by a second pass over the file in one unit of work,
 * in batches of multi-row statements. Neither pass keeps the rows in memory.
 */
@Injectable()
export class EntityImportService {
  constructor(
    private readonly entities: EntityImportRepository,
    private readonly tags: TagsService,
    private readonly entityTypes: EntityTypesService,
    private readonly changes: ChangeEvents,
  ) {}

  async import(user: AuthUser, file: StagedUpload | undefined): Promise<void> {
    if (!file) {
      throw ValidationFailedException.forField(
        IMPORT_FILE_FIELD,
        `${IMPORT_FILE_FIELD} is required: send the file as the multipart field "${IMPORT_FILE_FIELD}"`,
      );
    }
    try {
      const plan = await this.check(file);
      await this.write(user.groupId, file.path, plan);
    } finally {
      await rm(file.path, { force: true });
    }
  }

  /** The checking pass: every problem of the file, or what the writing pass needs. */
  private async check(file: StagedUpload): Promise<ImportPlan> {
    const problems = new ProblemList();
    if (!file.utf8Text) {
      problems.add({
        line: 1,
        column: null,
        reason: 'the file is not UTF-8 text (not a CSV file?)',
      });
      problems.throwIfAny();
    }
    const delimiter = await detectDelimiter(file.path);
    if (delimiter === null) {
      problems.add({ line: 1, column: null, reason: 'the file is empty' });
      problems.throwIfAny();
    }
    const plan: ImportPlan = {
      delimiter: delimiter!,
      header: { columns: [] },
      refs: new Map(),
      parentOfRef: new Map(),
      parentRefs: new Map(),
      locationPaths: new Map(),
      ownPaths: new Map(),
      kinds: new Map(),
      withoutLocation: [],
      tagNames: new Set(),
      maxAssetId: 0n,
    };
    let rows = 0;
    let lastLine = 1;
    let readable = true;
    try {
      for await (const record of readCsv(file.path, plan.delimiter)) {
        lastLine = record.line;
        if (rows++ === 0) {
          const { header, problems: headerProblems } = readHeader(record.cells);
          plan.header = header;
          problems.add(...headerProblems);
          // Without a usable header the rows cannot be read.
          if (headerProblems.length > 0) {
            readable = false;
            break;
          }
          continue;
        }
        const { row, problems: rowProblems } = readRow(plan.header, record.cells, record.line);
        problems.add(...rowProblems);
        if (row) this.learn(plan, row, problems);
      }
    } catch (error) {
      if (!(error instanceof CsvSyntaxError)) throw error;
      problems.add({
        line: error.line,
        column: null,
        reason: `the file cannot be read as CSV: ${error.message}`,
      });
      readable = false;
    }
    if (problems.count === 0 && rows < 2) {
      problems.add({
        line: lastLine + 1,
        column: null,
        reason: 'the file has a header but no data rows',
      });
    }
    if (readable) this.checkAcrossRows(plan, problems);
    problems.throwIfAny();
    return plan;
  }

  /** Notes what a valid row adds to the plan; finds repeated import refs. */
  private learn(plan: ImportPlan, row: ImportRow, problems: ProblemList): void {
    if (row.importRef !== null) {
      const earlier = plan.refs.get(row.importRef);
      if (earlier !== undefined) {
        problems.add({
          line: row.line,
          column: 'HB.import_ref',
          reason: `the import ref ${JSON.stringify(row.importRef)} is already used on line ${earlier}`,
        });
      } else {
        plan.refs.set(row.importRef, row.line);
        if (row.parentImportRef !== null) plan.parentOfRef.set(row.importRef, row.parentImportRef);
      }
    }
    if (row.parentImportRef !== null && !plan.parentRefs.has(row.parentImportRef)) {
      plan.parentRefs.set(row.parentImportRef, row.line);
    }
    for (let depth = 1; depth <= row.location.length; depth++) {
      const path = row.location.slice(0, depth);
      const key = pathKey(path);
      if (!plan.locationPaths.has(key)) plan.locationPaths.set(key, path);
    }
    const ownPath = [...row.location, row.values.name];
    const ownKey = pathKey(ownPath);
    if (row.kind !== null && !plan.kinds.has(ownKey)) plan.kinds.set(ownKey, row.kind);
    // An exported location describes its own path, whether or not anything is in it.
    if (row.kind === 'location' && !plan.locationPaths.has(ownKey)) {
      plan.locationPaths.set(ownKey, ownPath);
    }
    const own = plan.ownPaths.get(ownKey);
    if (!own) plan.ownPaths.set(ownKey, { line: row.line, importRef: row.importRef });
    else own.repeatedOn ??= row.line;
    // An exported row (its HB.url says what it is) with no location is at the top level.
    if (row.location.length === 0 && row.kind === null) {
      plan.withoutLocation.push({ line: row.line, key: ownKey });
    }
    for (const tag of row.tags) plan.tagNames.add(tag);
    if (row.assetId !== null && row.assetId > plan.maxAssetId) plan.maxAssetId = row.assetId;
  }

  /**
   * What only the whole file shows: rows without a location that are no top-level location,
   * two rows describing one location, and parents named in a loop.
   */
  private checkAcrossRows(plan: ImportPlan, problems: ProblemList): void {
    for (const { line, key } of plan.withoutLocation) {
      if (!plan.locationPaths.has(key)) {
        problems.add({
          line,
          column: 'HB.location',
          reason:
            'HB.location must not be empty: name the location the entity is in, as A / B / C ' +
            '(only a top-level location other rows are in may leave it empty)',
        });
      }
    }
    for (const [key, own] of plan.ownPaths) {
      if (own.repeatedOn !== undefined && plan.locationPaths.has(key)) {
        problems.add({
          line: own.repeatedOn,
          column: 'HB.name',
          reason: `the location ${plan.locationPaths.get(key)!.join(' / ')} is already described on line ${own.line}`,
        });
      }
    }
    const done = new Set<string>();
    for (const start of plan.parentOfRef.keys()) {
      if (done.has(start)) continue;
      const chain: string[] = [];
      const onChain = new Set<string>();
      let ref: string | undefined = start;
      while (ref !== undefined && !done.has(ref) && !onChain.has(ref)) {
        chain.push(ref);
        onChain.add(ref);
        ref = plan.parentOfRef.get(ref);
      }
      if (ref !== undefined && onChain.has(ref)) {
        const loop = chain.slice(chain.indexOf(ref));
        for (const member of loop) {
          problems.add({
            line: plan.refs.get(member)!,
            column: 'HB.parent_import_ref',
            reason: `the parents named loop back to this row: ${[...loop, ref].map((r) => JSON.stringify(r)).join(' → ')}`,
          });
        }
      }
      for (const member of chain) done.add(member);
    }
  }

  /** The writing pass, in one unit of work: nothing stays written if any part fails. */
  @Transactional()
  private async write(groupId: string, file: string, plan: ImportPlan): Promise<void> {
    const itemType = await this.entityTypes.defaultType(groupId, false);
    const locationType = await this.entityTypes.defaultType(groupId, true);
    const existing = await this.existingRefs(groupId, [
      ...new Set([...plan.refs.keys(), ...plan.parentRefs.keys()]),
    ]);
    const problems = new ProblemList();
    for (const [ref, line] of plan.parentRefs) {
      if (!plan.refs.has(ref) && !existing.has(ref)) {
        problems.add({
          line,
          column: 'HB.parent_import_ref',
          reason: `no row of the file and no entity of the group has the import ref ${JSON.stringify(ref)}`,
        });
      }
    }
    problems.throwIfAny();

    let nextAssetId = await this.entities.reserveAssetIds(groupId, plan.maxAssetId);
    const takeAssetId = (): bigint => {
      if (nextAssetId > MAX_ASSET_ID) {
        throw ValidationFailedException.forField(
          IMPORT_FILE_FIELD,
          'the group has no asset id left for the new entities: its highest is 9223372036854775807',
        );
      }
      return nextAssetId++;
    };
    const locations = await this.placeLocations(
      groupId,
      plan,
      existing,
      { item: itemType.id, location: locationType.id },
      takeAssetId,
    );
    const tagIds = await this.tags.resolveNames(groupId, [...plan.tagNames]);

    const newRefs = new Map<string, string>();
    const parentLinks: { id: string; parentRef: string; line: number }[] = [];
    /** Entities whose parent an existing entity may now be under: checked for loops. */
    const moved = new Map<string, number>();
    let batch: { row: ImportRow; id: string; insert: boolean }[] = [];
    const flush = async (): Promise<void> => {
      await this.writeBatch(groupId, batch, itemType.id, locations, tagIds, takeAssetId);
      batch = [];
    };
    let first = true;
    for await (const record of readCsv(file, plan.delimiter)) {
      if (first) {
        first = false;
        continue;
      }
      const { row } = readRow(plan.header, record.cells, record.line);
      if (!row) continue;
      const ownKey = pathKey([...row.location, row.values.name]);
      const existingId = row.importRef !== null ? existing.get(row.importRef) : undefined;
      const locationId = plan.locationPaths.has(ownKey) ? locations.get(ownKey) : undefined;
      const id = existingId ?? locationId ?? randomUUID();
      const insert = existingId === undefined && locationId === undefined;
      if (!insert) moved.set(id, row.line);
      // Only the refs some row names as its parent are needed later.
      if (row.importRef !== null && plan.parentRefs.has(row.importRef)) {
        newRefs.set(row.importRef, id);
      }
      if (row.parentImportRef !== null) {
        parentLinks.push({ id, parentRef: row.parentImportRef, line: row.line });
        moved.set(id, row.line);
      }
      batch.push({ row, id, insert });
      if (batch.length >= BATCH_ROWS) await flush();
    }
    await flush();

    const pairs = parentLinks.map((link) => ({
      id: link.id,
      parentId: newRefs.get(link.parentRef) ?? existing.get(link.parentRef)!,
    }));
    for (let index = 0; index < pairs.length; index += LOOKUP_CHUNK) {
      await this.entities.setParents(groupId, pairs.slice(index, index + LOOKUP_CHUNK));
    }
    const ids = [...moved.keys()];
    for (let index = 0; index < ids.length; index += LOOKUP_CHUNK) {
      for (const id of await this.entities.findInCycles(
        groupId,
        ids.slice(index, index + LOOKUP_CHUNK),
      )) {
        problems.add({
          line: moved.get(id)!,
          column: null,
          reason: 'the entity would end up inside itself (its parent is one of its descendants)',
        });
      }
    }
    problems.throwIfAny();
    await this.changes.publish(groupId, 'entity.mutation');
  }

  /** The group's entities with these import refs: id by ref. */
  private async existingRefs(groupId: string, refs: string[]): Promise<Map<string, string>> {
    const ids = new Map<string, string>();
    for (let index = 0; index < refs.length; index += LOOKUP_CHUNK) {
      const rows = await this.entities.findByImportRefs(
        groupId,
        refs.slice(index, index + LOOKUP_CHUNK),
      );
      for (const row of rows) if (!ids.has(row.import_ref)) ids.set(row.import_ref, row.id);
    }
    return ids;
  }

  /**
   * The entity for every location path of the file: the row's own entity when a row with an
   * import ref of the group describes that path, else the group's location of that name path
   * (the oldest, should several share it), else a new location of the group's location type
   * (of its item type when the row describing it is an exported item).
   */
  private async placeLocations(
    groupId: string,
    plan: ImportPlan,
    existing: Map<string, string>,
    typeIds: { item: string; location: string },
    nextAssetId: () => bigint,
  ): Promise<LocationIds> {
    const ids: LocationIds = new Map();
    const rows = await this.entities.findLocations(groupId);
    const byId = new Map(rows.map((row) => [row.id, row]));
    const keyOf = new Map<string, string | null>();
    const key = (id: string, depth = 0): string | null => {
      if (keyOf.has(id)) return keyOf.get(id)!;
      const row = byId.get(id)!;
      let result: string | null;
      if (depth > 1000) result = null;
      else if (row.parent_id === null) result = pathKey([row.name]);
      else if (!byId.has(row.parent_id)) result = null;
      else {
        const parent = key(row.parent_id, depth + 1);
        result = parent === null ? null : `${parent}\u0000${row.name}`;
      }
      keyOf.set(id, result);
      return result;
    };
    for (const row of rows) {
      const found = key(row.id);
      if (found !== null && !ids.has(found)) ids.set(found, row.id);
    }
    for (const [path, own] of plan.ownPaths) {
      const id = own.importRef !== null ? existing.get(own.importRef) : undefined;
      if (id !== undefined && plan.locationPaths.has(path)) ids.set(path, id);
    }
    const missing = [...plan.locationPaths]
      .filter(([path]) => !ids.has(path))
      .sort(([, a], [, b]) => a.length - b.length);
    const inserts: ImportedInsert[] = [];
    for (const [path, names] of missing) {
      const id = randomUUID();
      ids.set(path, id);
      inserts.push({
        id,
        entityTypeId: plan.kinds.get(path) === 'item' ? typeIds.item : typeIds.location,
        assetId: nextAssetId(),
        columns: columnsOf(
          { ...emptyValues(), name: names[names.length - 1], quantity: 1 },
          null,
          names.length > 1 ? ids.get(pathKey(names.slice(0, -1)))! : null,
        ),
      });
    }
    for (let index = 0; index < inserts.length; index += BATCH_ROWS) {
      await this.entities.insertImported(groupId, inserts.slice(index, index + BATCH_ROWS));
    }
    return ids;
  }

  /** Writes one batch of rows: new entities, replaced ones, their tags and custom fields. */
  private async writeBatch(
    groupId: string,
    batch: { row: ImportRow; id: string; insert: boolean }[],
    itemTypeId: string,
    locations: LocationIds,
    tagIds: Map<string, string>,
    nextAssetId: () => bigint,
  ): Promise<void> {
    if (batch.length === 0) return;
    const inserts: ImportedInsert[] = [];
    const updates: ImportedUpdate[] = [];
    for (const { row, id, insert } of batch) {
      const columns = columnsOf(
        row.values,
        row.importRef,
        row.location.length > 0 ? locations.get(pathKey(row.location))! : null,
      );
      if (insert) {
        inserts.push({
          id,
          entityTypeId: itemTypeId,
          assetId: row.assetId ?? nextAssetId(),
          columns,
        });
      } else {
        updates.push({ id, assetId: row.assetId, columns });
      }
    }
    await this.entities.insertImported(groupId, inserts);
    await this.entities.updateImported(groupId, updates);
    const replaced = updates.map((update) => update.id);
    await this.tags.holdTree(groupId);
    await this.entities.replaceTagsOf(
      replaced,
      batch.flatMap(({ row, id }) =>
        row.tags.map((name) => ({ entityId: id, tagId: tagIds.get(name)! })),
      ),
    );
    await this.entities.replaceTextFieldsOf(
      replaced,
      batch.flatMap(({ row, id }) =>
        row.fields.map((field, position) => ({
          entityId: id,
          name: field.name,
          value: field.value,
          position,
        })),
      ),
    );
  }
}

/** The stored columns of a row (see IMPORTED_COLUMNS), under the parent its location names. */
function columnsOf(
  v: ImportedValues,
  importRef: string | null,
  parentId: string | null,
): ImportedColumns {
  return {
    name: v.name,
    description: v.description,
    notes: v.notes,
    serial_number: v.serialNumber,
    model_number: v.modelNumber,
    manufacturer: v.manufacturer,
    warranty_details: v.warrantyDetails,
    purchase_from: v.purchaseFrom,
    sold_to: v.soldTo,
    sold_notes: v.soldNotes,
    purchase_date: v.purchaseDate,
    warranty_expires: v.warrantyExpires,
    sold_date: v.soldDate,
    insured: v.insured,
    archived: v.archived,
    lifetime_warranty: v.lifetimeWarranty,
    quantity: v.quantity,
    purchase_price: v.purchasePrice,
    sold_price: v.soldPrice,
    import_ref: importRef,
    parent_id: parentId,
  };
}
