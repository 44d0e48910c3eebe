import { ForbiddenException, Get, Logger, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AccountsService } from '../../identity/accounts/accounts.service.js';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { CurrentUser } from '../../identity/auth/decorators/current-user.decorator.js';
import { OWNER_ONLY_MESSAGE } from '../../identity/auth/guards/group-access.guard.js';
import { EntityViewsService } from '../../inventory/entities/views/entity-views.service.js';
import { AuditQueryDto } from '../../inventory/history/dto/history-queries.dto.js';
import { EntityHistoryService } from '../../inventory/history/entity-history.service.js';
import type { HistoryAction } from '../../inventory/history/entity-history.record.js';
import { sendCsv } from '../../platform/http/csv-download.js';
import { ValidationFailedException } from '../../platform/errors/validation-failed.exception.js';
import { Page } from '../pages/page.decorator.js';
import { ConsoleFrames } from './console-frames.service.js';
import { checked } from './console-forms.js';
import { pageNumber } from './desk.controller.js';
import { historyPage, type HistoryFilterForm } from './history.views.js';

/** Changes on one page of the history. */
const HISTORY_PAGE_SIZE = 25;
/** Entities a name search shows at most. */
const FOUND_AT_MOST = 20;

/** The API's names of the history filters, by the names the page's form gives them. */
const FORM_NAMES: Record<string, keyof HistoryFilterForm> = {
  entityId: 'entity',
  actorId: 'member',
  action: 'kind',
  since: 'from',
  until: 'to',
};

/** A history filter read from the query, and the API's query it stands for. */
interface HistoryFilter {
  form: HistoryFilterForm;
  query: AuditQueryDto;
  page: number;
}

/**
 * The history of changes (`/console/history`): the group's changes for its owners, filtered by
 * entity, member, kind and day, as GET /api/v1/audit gives them; an entity's changes for any
 * member, as GET /api/v1/entities/{id}/history; both as a CSV download.
 */
@Page('console')
export class HistoryPageController {
  private readonly logger = new Logger('ConsoleHistory');

  constructor(
    private readonly frames: ConsoleFrames,
    private readonly history: EntityHistoryService,
    private readonly accounts: AccountsService,
    private readonly views: EntityViewsService,
  ) {}

  @Get('history')
  async historyPage(
    @CurrentUser() user: AuthUser,
    @Query() query: Record<string, unknown>,
  ): Promise<string> {
    const filter = await readFilter(query);
    const groupWide = user.role === 'owner';
    const find = typeof query.find === 'string' ? query.find.trim() : '';
    const paging = { page: filter.page, pageSize: HISTORY_PAGE_SIZE };
    const [frame, members, page, found] = await Promise.all([
      this.frames.of(user),
      groupWide ? this.accounts.listMembers(user) : [],
      groupWide
        ? this.history.audit(user, { ...filter.query, ...paging })
        : filter.form.entity === undefined && onlyEntity(filter)
          ? undefined
          : this.history.ofEntity(user, ownEntity(filter), paging),
      find === '' ? undefined : this.find(user, find),
    ]);
    return historyPage(frame, {
      filter: filter.form,
      find,
      found,
      groupWide,
      members,
      page: page?.value(),
    });
  }

  @Get('history.csv')
  async historyCsv(
    @CurrentUser() user: AuthUser,
    @Query() query: Record<string, unknown>,
    @Res() response: Response,
  ): Promise<void> {
    const filter = await readFilter(query);
    const download =
      user.role === 'owner'
        ? await this.history.auditCsv(user, filter.query)
        : await this.history.entityCsv(user, ownEntity(filter));
    await sendCsv(response, download, this.logger);
  }

  /** The group's entities whose name or description have these words. */
  private async find(user: AuthUser, words: string): Promise<{ id: string; name: string }[]> {
    const page = (
      await this.views.list(user, { q: words, page: 1, pageSize: FOUND_AT_MOST })
    ).value();
    return page.items.map((entity) => ({ id: entity.id, name: entity.name }));
  }
}

/**
 * The filter of a request by a member who is not an owner: an entity alone, as the API lets any
 * member read one entity's history; the group-wide filters are refused as the API's audit is.
 */
function ownEntity(filter: HistoryFilter): string {
  const { entity } = filter.form;
  if (entity === undefined || !onlyEntity(filter)) throw new ForbiddenException(OWNER_ONLY_MESSAGE);
  return entity;
}

/** Whether the filter names nothing but (perhaps) an entity. */
function onlyEntity(filter: HistoryFilter): boolean {
  const { entity: _entity, ...rest } = filter.form;
  return Object.values(rest).every((value) => value === undefined);
}

/** Whether the text is a day `YYYY-MM-DD` of the calendar. */
const isDay = (text: string): boolean =>
  /^\d{4}-\d{2}-\d{2}$/.test(text) &&
  !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) &&
  new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);

/** The day after a day `YYYY-MM-DD`. */
const dayAfter = (day: string): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * The filter of the page's query, checked as the API checks its audit query (a 422 naming each
 * wrong field by the form's name): days from and to (both included, in UTC), an entity id, a
 * member's id and a kind of change; empty fields filter nothing.
 */
async function readFilter(query: Record<string, unknown>): Promise<HistoryFilter> {
  const text = (name: string): string | undefined => {
    const value = query[name];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  const form: HistoryFilterForm = {
    entity: text('entity'),
    member: text('member'),
    kind: text('kind') as HistoryAction | undefined,
    from: text('from'),
    to: text('to'),
  };
  const problems: Record<string, string> = {};
  for (const name of ['from', 'to'] as const) {
    const day = form[name];
    if (day !== undefined && !isDay(day)) problems[name] = `${name} must be a day (YYYY-MM-DD)`;
  }
  if (Object.keys(problems).length === 0 && form.from && form.to && form.to < form.from) {
    problems.to = 'to must not be before from';
  }
  if (Object.keys(problems).length > 0) throw new ValidationFailedException(problems);
  try {
    const checkedQuery = await checked(AuditQueryDto, {
      entityId: form.entity,
      actorId: form.member,
      action: form.kind,
      since: form.from,
      until: form.to === undefined ? undefined : dayAfter(form.to),
    });
    return { form, query: checkedQuery, page: pageNumber(query.page) };
  } catch (error) {
    throw error instanceof ValidationFailedException ? byFormNames(error) : error;
  }
}

/** The API's validation problems named as the page's form names its fields. */
function byFormNames(error: ValidationFailedException): ValidationFailedException {
  const fields: Record<string, string> = {};
  for (const [name, problem] of Object.entries(error.fields)) {
    const formName = FORM_NAMES[name] ?? name;
    fields[formName] = problem.startsWith(name) ? formName + problem.slice(name.length) : problem;
  }
  return new ValidationFailedException(fields);
}
