import { NotFoundException } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import { ValidationFailedException } from '../errors/validation-failed.exception.js';
import type { Database } from './database.js';

export interface FindOwnedOptions {
  /**
   * Locks the row (`FOR UPDATE`) until the unit of work ends, so a read-modify-write cannot
   * interleave with another; only inside a unit of work.
   */
  lock?: boolean;
  /**
   * The body field the id came from: a missing row is then a 422 naming that field. Without
   * it the id came from the path, and a missing row is a 404.
   */
  field?: string;
  /** Relations to load with the row. */
  relations?: string[];
  /** Only a row of this member (its `user_id`), for rows that belong to one user, as notifiers do. */
  userId?: string;
}

/**
 * How a record's rows belong to a group, as SQL over the record's table aliased `o`: `condition`
 * with `$1` the group's id (and `$3` on for `params`), after an optional `join`. By default the
 * row's own `group_id`; an attachment belongs through its entity.
 */
export interface GroupScope {
  join?: string;
  condition: string;
  params?: unknown[];
}

const BY_GROUP_COLUMN: GroupScope = { condition: 'o.group_id = $1' };

/** The error for a row that is not the group's: 404 for a path id, 422 for a body field. */
export function notOwned(noun: string, id: string, field?: string): Error {
  const message = `${noun} ${id} not found`;
  return field
    ? ValidationFailedException.forField(field, message)
    : new NotFoundException(message);
}

/**
 * "Load this row of my group or fail", once for the whole app: each repository makes one for its
 * record (`new OwnedLookup(db, TagRecord, 'tag')`) and exposes it as `findOwned(groupId, id,
 * options)`. The group is always part of the query, an id that is not a UUID is simply not
 * found, and the failure names the thing and id. The statement is SQL written once per record
 * from its columns (TypeORM's query builder cost about 300 µs more per lookup: docs/architecture.md,
 * "Data access"); relations asked for are loaded after it through TypeORM.
 */
export class OwnedLookup<T extends ObjectLiteral & { id: string }> {
  private statement?: { select: string; metadata: EntityMetadata };

  constructor(
    private readonly db: Database,
    private readonly record: EntityTarget<T>,
    private readonly noun: string,
    private readonly scope: GroupScope = BY_GROUP_COLUMN,
  ) {}

  async find(groupId: string, id: string, options: FindOwnedOptions = {}): Promise<T> {
    const [found] = isUUID(id, 'all') ? await this.query(groupId, 'o.id = $2', id, options) : [];
    if (!found) throw notOwned(this.noun, id, options.field);
    return found;
  }

  /**
   * The group's rows with these ids, in the order given and without duplicates; any id that is
   * not one of them fails as `find` does.
   */
  async findMany(groupId: string, ids: string[], options: FindOwnedOptions = {}): Promise<T[]> {
    const unique = [...new Set(ids)];
    const invalid = unique.find((id) => !isUUID(id, 'all'));
    if (invalid !== undefined) throw notOwned(this.noun, invalid, options.field);
    if (unique.length === 0) return [];
    const rows = await this.query(groupId, 'o.id = ANY($2::uuid[])', unique, options);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return unique.map((id) => {
      const row = byId.get(id);
      if (!row) throw notOwned(this.noun, id, options.field);
      return row;
    });
  }

  private async query(
    groupId: string,
    idCondition: string,
    ids: string | string[],
    options: FindOwnedOptions,
  ): Promise<T[]> {
    if (options.lock && !this.db.inTransaction) {
      throw new Error(`locking a ${this.noun} needs a unit of work`);
    }
    const { select, metadata } = this.prepare();
    const params: unknown[] = [groupId, ids, ...(this.scope.params ?? [])];
    let sql = `${select} ${this.scope.join ?? ''} WHERE ${this.scope.condition} AND ${idCondition}`;
    if (options.userId !== undefined) {
      params.push(options.userId);
      sql += ` AND o.user_id = $${params.length}`;
    }
    if (options.lock) sql += ' FOR UPDATE OF o';
    const rows = await this.db.query<T>(sql, params);
    const records = rows.map((row) => Object.assign(metadata.create() as T, row));
    for (const relation of options.relations ?? []) {
      for (const record of records) await this.loadRelation(metadata, record, relation);
    }
    return records;
  }

  /** The select list of the record's columns, as properties, from its table aliased `o`. */
  private prepare(): { select: string; metadata: EntityMetadata } {
    if (!this.statement) {
      const metadata = this.db.manager.connection.getMetadata(this.record);
      const columns = metadata.columns
        .filter((column) => column.isSelect && !column.isVirtual)
        .map((column) => `o."${column.databaseName}" AS "${column.propertyName}"`);
      this.statement = {
        select: `SELECT ${columns.join(', ')} FROM "${metadata.tableName}" o`,
        metadata,
      };
    }
    return this.statement;
  }

  private async loadRelation(metadata: EntityMetadata, record: T, name: string): Promise<void> {
    const relation = metadata.findRelationWithPropertyPath(name);
    if (!relation) throw new Error(`${metadata.name} has no relation ${name}`);
    const loader = this.db.manager.createQueryBuilder().relation(this.record, name).of(record.id);
    (record as Record<string, unknown>)[name] =
      relation.isOneToMany || relation.isManyToMany
        ? await loader.loadMany()
        : ((await loader.loadOne()) ?? null);
  }
}

/**
 * The base of a repository whose rows belong to a group: `findOwned` and `findOwnedMany` through
 * one `OwnedLookup`, and `db` for everything else the repository does.
 */
export abstract class OwnedRepository<T extends ObjectLiteral & { id: string }> {
  private readonly owned: OwnedLookup<T>;

  protected constructor(
    protected readonly db: Database,
    record: EntityTarget<T>,
    noun: string,
    scope?: GroupScope,
  ) {
    this.owned = new OwnedLookup(db, record, noun, scope);
  }

  findOwned(groupId: string, id: string, options?: FindOwnedOptions): Promise<T> {
    return this.owned.find(groupId, id, options);
  }

  findOwnedMany(groupId: string, ids: string[], options?: FindOwnedOptions): Promise<T[]> {
    return this.owned.findMany(groupId, ids, options);
  }
}
