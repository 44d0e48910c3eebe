import { createHash } from 'node:crypto';
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { InjectDataSource } from '@nestjs/typeorm';
import type pg from 'pg';
import type { DataSource, EntityManager, EntityTarget, ObjectLiteral, Repository } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import type { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner.js';
import { telemetry } from '../telemetry/telemetry.js';
import { databaseOutage } from './database-availability.js';
import { AfterCommit } from './after-commit.js';

/** Distinct texts a process prepares at most; PostgreSQL keeps each plan per connection. */
const MAX_PREPARED_TEXTS = 32;

/**
 * The one way to PostgreSQL for the repositories. Every call joins the unit of work open in the
 * current context (`transaction()` here, or `@Transactional()` on a service method), so a
 * repository method never takes a manager and never reads on a second connection while its
 * caller's transaction holds one. Outside a unit of work each call runs on the pool by itself.
 */
@Injectable()
export class Database implements OnApplicationBootstrap {
  /** Statement name by text. */
  private readonly statementNames = new Map<string, string>();

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** With metrics on: the pool's connections by state, and how long each connection was awaited. */
  onApplicationBootstrap(): void {
    if (!telemetry().metering) return;
    const pool = (this.dataSource.driver as PostgresDriver).master as pg.Pool;
    telemetry().observe('trove.db.pool.connections', () => [
      { value: pool.totalCount - pool.idleCount, attributes: { pool: 'app', state: 'in_use' } },
      { value: pool.idleCount, attributes: { pool: 'app', state: 'idle' } },
      { value: pool.waitingCount, attributes: { pool: 'app', state: 'waiting' } },
    ]);
    telemetry().observe('trove.db.available', () => [{ value: databaseOutage.down ? 0 : 1 }]);
    type Done = (error: Error | undefined, client: unknown, release: unknown) => void;
    const connect = (pool.connect as (done?: Done) => Promise<unknown> | undefined).bind(pool);
    const waited = (startedAt: number): void => telemetry().poolWait(performance.now() - startedAt);
    const measured = (done?: Done): Promise<unknown> | undefined => {
      const startedAt = performance.now();
      if (done) {
        return connect((error, client, release) => {
          waited(startedAt);
          done(error, client, release);
        });
      }
      return connect()?.finally(() => waited(startedAt));
    };
    pool.connect = measured as typeof pool.connect;
  }

  /** The manager of the open unit of work, or the pool's outside one. */
  get manager(): EntityManager {
    return this.txHost.tx;
  }

  get inTransaction(): boolean {
    return this.txHost.isTransactionActive();
  }

  /** Runs `work` in the open unit of work, or in a new transaction that commits when it returns. */
  transaction<T>(work: () => Promise<T>): Promise<T> {
    return this.txHost.withTransaction(work);
  }

  /**
   * Runs `work` once the unit of work open in the context has committed (never if it rolls
   * back), or at once outside one. For what cannot be undone and must follow the change only
   * when it is kept: deleting stored files the change stopped using. A failure of `work` is
   * logged; the change stays committed.
   */
  async afterCommit(work: () => Promise<void>): Promise<void> {
    const deferred = this.inTransaction ? AfterCommit.current() : undefined;
    if (deferred) deferred.add(work);
    else await work();
  }

  /**
   * Runs `work` outside the unit of work open in the context: its calls run on the pool, each by
   * itself or in a unit of work `work` opens. For what must be seen before the open one commits
   * (the progress of a long job).
   */
  outside<T>(work: () => Promise<T>): Promise<T> {
    return this.txHost.withoutTransaction(work);
  }

  repository<T extends ObjectLiteral>(record: EntityTarget<T>): Repository<T> {
    return this.manager.getRepository(record);
  }

  /**
   * The rows a statement returns, whatever its command (an UPDATE or DELETE answers the rows of
   * its RETURNING clause), in the open unit of work.
   */
  async query<T>(text: string, values: unknown[] = []): Promise<T[]> {
    const client = await this.client();
    const result = await client.query<T & pg.QueryResultRow>(text, values);
    return result.rows;
  }

  /**
   * Runs a statement for its effect and answers how many rows it changed (inserted, updated or
   * deleted), in the open unit of work: for purges that report what went without reading it.
   */
  async execute(text: string, values: unknown[] = []): Promise<number> {
    const client = await this.client();
    const result = await client.query(text, values);
    return result.rowCount ?? 0;
  }

  /**
   * Runs a statement that answers one row with a `count` column (a data-modifying statement
   * wrapped as `WITH changed AS (... RETURNING 1) SELECT count(*)::int AS count FROM changed`),
   * in the open unit of work; answers the count.
   */
  async count(text: string, values: unknown[] = []): Promise<number> {
    const [row] = await this.query<{ count: number }>(text, values);
    return row.count;
  }

  /**
   * Runs a statement of fixed text as a named (prepared) statement, so PostgreSQL parses and
   * plans it once per connection instead of on every call; for the large view statements that
   * is most of their cost. Only for statements whose plan does not depend on the values
   * (lookups by key): PostgreSQL may settle on one generic plan for them. In a unit of work it
   * runs on that transaction's connection. Past MAX_PREPARED_TEXTS distinct texts, statements
   * run unnamed.
   */
  async prepared<T>(text: string, values: unknown[]): Promise<T[]> {
    const name = this.statementName(text);
    const client = await this.client();
    const result = await client.query<T & pg.QueryResultRow>({ name, text, values });
    return result.rows;
  }

  /** The open unit of work's connection, or the pool. */
  private async client(): Promise<pg.Pool | pg.PoolClient> {
    const runner = this.manager.queryRunner as PostgresQueryRunner | undefined;
    return runner
      ? ((await runner.connect()) as pg.PoolClient)
      : ((this.dataSource.driver as PostgresDriver).master as pg.Pool);
  }

  private statementName(text: string): string | undefined {
    let name = this.statementNames.get(text);
    if (name === undefined && this.statementNames.size < MAX_PREPARED_TEXTS) {
      name = `trove_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
      this.statementNames.set(text, name);
    }
    return name;
  }
}
