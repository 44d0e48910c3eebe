import { NotFoundException } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { EntityTarget, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
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
 * Narrows `query` (the record's rows as `alias`) to the group `groupId`: by the row's own
 * `group_id` by default, or through the row it belongs to (an attachment's entity).
 */
export type GroupScope<T extends ObjectLiteral> = (
  query: SelectQueryBuilder<T>,
  alias: string,
  groupId: string,
) => SelectQueryBuilder<T>;

const byGroupColumn = <T extends ObjectLiteral>(
  query: SelectQueryBuilder<T>,
  alias: string,
  groupId: string,
): SelectQueryBuilder<T> => query.andWhere(`${alias}.group_id = :groupId`, { groupId });

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
 * found, and the failure names the thing and id.
 */
export class OwnedLookup<T extends ObjectLiteral & { id: string }> {
  constructor(
    private readonly db: Database,
    private readonly record: EntityTarget<T>,
    private readonly noun: string,
    private readonly scope: GroupScope<T> = byGroupColumn,
  ) {}

  async find(groupId: string, id: string, options: FindOwnedOptions = {}): Promise<T> {
    const found = isUUID(id, 'all')
      ? await this.query(groupId, options).andWhere('o.id = :id', { id }).getOne()
      : null;
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
    const rows = await this.query(groupId, options)
      .andWhere('o.id IN (:...ids)', { ids: unique })
      .getMany();
    const byId = new Map(rows.map((row) => [row.id, row]));
    return unique.map((id) => {
      const row = byId.get(id);
      if (!row) throw notOwned(this.noun, id, options.field);
      return row;
    });
  }

  private query(groupId: string, options: FindOwnedOptions): SelectQueryBuilder<T> {
    let query = this.scope(this.db.repository(this.record).createQueryBuilder('o'), 'o', groupId);
    if (options.userId !== undefined) {
      query = query.andWhere('o.user_id = :userId', { userId: options.userId });
    }
    for (const relation of options.relations ?? []) {
      query = query.leftJoinAndSelect(`o.${relation}`, relation);
    }
    if (options.lock) {
      if (!this.db.inTransaction) throw new Error(`locking a ${this.noun} needs a unit of work`);
      query = query.setLock('pessimistic_write', undefined, ['o']);
    }
    return query;
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
    scope?: GroupScope<T>,
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
