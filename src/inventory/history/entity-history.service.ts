import { Readable } from 'node:stream';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { ValidationFailedException } from '../../platform/errors/validation-failed.exception.js';
import type { CsvDownload } from '../../platform/http/csv-download.js';
import { JsonText } from '../../platform/http/json-text.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { EntitiesService } from '../entities/core/entities.service.js';
import { JobQueue } from '../../platform/jobs/job-queue.js';
import type { HistoryPageDto } from './dto/history-entry.dto.js';
import type { AuditQueryDto, HistoryPageQueryDto } from './dto/history-queries.dto.js';
import { HISTORY_CSV_HEADER, toHistoryCsvRows, toHistoryEntry } from './entity-history.mapper.js';
import {
  EntityHistoryRepository,
  type AuditFilter,
  type HistoryBatchRow,
  type HistoryPage,
} from './entity-history.repository.js';

/** The daily purge of changes older than the retention, a scheduled job (once across instances). */
export const HISTORY_PURGE_JOB = 'history.purge';

/** Rows one purge statement deletes, so that no statement holds locks for long. */
const PURGE_BATCH = 10_000;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Changes a download reads from the database at a time. */
const CSV_BATCH = 500;

/**
 * The change history of entities, which the database records with every change (see the
 * `RecordEntityHistory` migration): an entity's own history for its group's members, and the
 * whole group's for its owners. Kept `TROVE_AUDIT_RETENTION_DAYS` days.
 */
@Injectable()
export class EntityHistoryService implements OnModuleInit {
  private readonly logger = new Logger('EntityHistory');

  constructor(
    private readonly history: EntityHistoryRepository,
    private readonly entities: EntitiesService,
    private readonly jobs: JobQueue,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  onModuleInit(): void {
    this.jobs.register({
      name: HISTORY_PURGE_JOB,
      retryLimit: 2,
      schedule: { cron: '23 3 * * *', data: {} },
      handle: async () => {
        await this.purge(new Date());
      },
    });
  }

  /**
   * The entity's changes, newest first; also once it is deleted. An id the group has neither
   * an entity nor history of is a 404.
   */
  async ofEntity(
    user: AuthUser,
    entityId: string,
    query: HistoryPageQueryDto,
  ): Promise<JsonText<HistoryPageDto>> {
    const { page, pageSize } = paging(query);
    const found = await this.history.pageOfEntity(
      user.groupId,
      entityId,
      pageSize,
      (page - 1) * pageSize,
    );
    if (found.total === 0) await this.entities.findOwned(user, entityId);
    return toPage(found, page, pageSize);
  }

  /** The group's changes that pass the query's filter, newest first. */
  async audit(user: AuthUser, query: AuditQueryDto): Promise<JsonText<HistoryPageDto>> {
    const { page, pageSize } = paging(query);
    const found = await this.history.pageOfGroup(
      user.groupId,
      auditFilter(query),
      pageSize,
      (page - 1) * pageSize,
    );
    return toPage(found, page, pageSize);
  }

  /**
   * The group's changes that pass the query's filter as a CSV file, newest first, one record per
   * changed field (`HISTORY_CSV_HEADER`); read from the database in batches as it is sent.
   */
  auditCsv(user: AuthUser, query: AuditQueryDto): Promise<CsvDownload> {
    return this.csv(user.groupId, auditFilter(query));
  }

  /** The entity's changes as a CSV file, as `auditCsv`; 404 as `ofEntity`. */
  async entityCsv(user: AuthUser, entityId: string): Promise<CsvDownload> {
    const download = await this.csv(user.groupId, { ...NO_FILTER, entityId });
    if (download.empty) await this.entities.findOwned(user, entityId);
    return download;
  }

  /**
   * The rows of every batch as CSV records. The first batch is read before this returns, so a
   * failing database is an ordinary error response; each next one while the previous is sent.
   */
  private async csv(
    groupId: string,
    filter: AuditFilter,
  ): Promise<CsvDownload & { empty: boolean }> {
    const read = (after: string | null): Promise<HistoryBatchRow[]> =>
      this.history.batchOfGroup(groupId, filter, after, CSV_BATCH);
    const first = await read(null);
    async function* records(): AsyncGenerator<string[]> {
      let batch = first;
      for (;;) {
        const last = batch.length === CSV_BATCH ? batch[batch.length - 1] : undefined;
        const next = last ? read(last.seq) : undefined;
        // Should the client leave while it is being read, its failure is nobody's concern.
        void next?.catch(() => undefined);
        for (const row of batch) yield* toHistoryCsvRows(toHistoryEntry(row));
        if (!next) return;
        batch = await next;
      }
    }
    return {
      disposition: 'attachment; filename="history.csv"',
      header: [...HISTORY_CSV_HEADER],
      rows: Readable.from(records()),
      empty: first.length === 0,
    };
  }

  /** Deletes the changes older than the retention, in batches; how many went. */
  async purge(now: Date): Promise<number> {
    const cutOff = new Date(
      now.getTime() - this.config.get('audit', { infer: true }).retentionDays * DAY_MS,
    );
    let purged = 0;
    for (;;) {
      const batch = await this.history.purgeBatch(cutOff, PURGE_BATCH);
      purged += batch;
      if (batch < PURGE_BATCH) break;
    }
    if (purged > 0)
      this.logger.log(`purged ${purged} change(s) made before ${cutOff.toISOString()}`);
    return purged;
  }
}

const NO_FILTER: AuditFilter = {
  since: null,
  until: null,
  actorId: null,
  entityId: null,
  action: null,
};

/** The audit query's filter; a window that ends before it starts is a 422 naming `until`. */
function auditFilter(query: AuditQueryDto): AuditFilter {
  const since = query.since ? new Date(query.since) : null;
  const until = query.until ? new Date(query.until) : null;
  if (since && until && since > until) {
    throw ValidationFailedException.forField('until', 'until must not be before since');
  }
  return {
    since,
    until,
    actorId: query.actorId ?? null,
    entityId: query.entityId ?? null,
    action: query.action ?? null,
  };
}

function paging(query: HistoryPageQueryDto): { page: number; pageSize: number } {
  return { page: query.page ?? 1, pageSize: query.pageSize ?? 50 };
}

/** The page as JSON (`writeJson`: asset ids as JSON numbers with all their digits). */
function toPage(found: HistoryPage, page: number, pageSize: number): JsonText<HistoryPageDto> {
  return JsonText.of({
    page,
    pageSize,
    total: found.total,
    items: found.rows.map(toHistoryEntry),
  });
}
