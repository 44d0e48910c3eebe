import type { GroupMemberDto } from '../../identity/groups/dto/group-member.dto.js';
import type {
  HistoryEntryDto,
  HistoryPageDto,
} from '../../inventory/history/dto/history-entry.dto.js';
import {
  HISTORY_KINDS,
  historyActorText,
  historyValueText,
} from '../../inventory/history/entity-history.mapper.js';
import type { HistoryAction } from '../../inventory/history/entity-history.record.js';
import { html, type SafeHtml } from '../pages/page-html.js';
import {
  consolePage,
  CONSOLE_PATHS,
  entityLink,
  pager,
  withQuery,
  type ConsoleFrame,
} from './console-layout.js';

/** The download of the history as CSV, with the same filters as the page. */
export const HISTORY_CSV_PATH = `${CONSOLE_PATHS.history}.csv`;

/** The history page's filters as the form and its links carry them (days as `YYYY-MM-DD`). */
export interface HistoryFilterForm {
  entity?: string;
  member?: string;
  kind?: HistoryAction;
  from?: string;
  to?: string;
}

export interface HistoryView {
  filter: HistoryFilterForm;
  /** Words looked for in entities' names, and what they found (absent when not asked). */
  find: string;
  found?: { id: string; name: string }[];
  /** Whether the caller sees the group-wide view with its filters (owners, as the API). */
  groupWide: boolean;
  /** The group's members, for the member filter (owners only). */
  members: GroupMemberDto[];
  /** The changes, or nothing when a member other than an owner named no entity. */
  page?: HistoryPageDto;
}

/** A change's time as people read it, in UTC to the second. */
const whenText = (changedAt: string): string => `${changedAt.slice(0, 19).replace('T', ' ')} UTC`;

/** One change: who did what to which entity when, and each field before and after. */
function changeItem(frame: ConsoleFrame, entry: HistoryEntryDto): SafeHtml {
  const kind = HISTORY_KINDS[entry.action];
  const entity =
    entry.action === 'delete'
      ? html`<strong>${entry.entityName}</strong>`
      : entityLink(frame, entry.entityId, entry.entityName);
  const rows = entry.changes.map(
    (change) =>
      html`<tr>
        <td>${change.field}</td>
        <td>${historyValueText(change.before) || '—'}</td>
        <td>${historyValueText(change.after) || '—'}</td>
      </tr>`,
  );
  const fields =
    entry.changes.length === 0
      ? html`<p class="muted">No field changed.</p>`
      : html`<table class="change-fields">
          <caption class="visually-hidden">
            Fields of ${entry.entityName} ${kind} at ${whenText(entry.changedAt)}
          </caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
            </tr>
          </thead>
          <tbody>
            ${rows}
          </tbody>
        </table>`;
  return html`<li class="change">
    <p>
      <time datetime="${entry.changedAt}">${whenText(entry.changedAt)}</time> ·
      ${historyActorText(entry.actor)} ${kind} ${entity}
      <span class="muted"
        >(${entry.operation}) ·
        <a href="${withQuery(CONSOLE_PATHS.history, { entity: entry.entityId })}"
          >its history</a
        ></span
      >
    </p>
    ${fields}
  </li>`;
}

/** The filters of the group-wide view: entity, member, kind and days. */
function filterForm(view: HistoryView): SafeHtml {
  const { filter } = view;
  const option = (value: string, label: string, selected: boolean): SafeHtml =>
    selected
      ? html`<option value="${value}" selected>${label}</option>`
      : html`<option value="${value}">${label}</option>`;
  const kinds = (Object.keys(HISTORY_KINDS) as HistoryAction[]).map((kind) =>
    option(kind, HISTORY_KINDS[kind], filter.kind === kind),
  );
  const members = view.members.map((member) =>
    option(member.id, member.name, filter.member === member.id),
  );
  return html`<form method="get" action="${CONSOLE_PATHS.history}" aria-label="Filter the changes">
    <div class="fields">
      <div>
        <label for="entity">Entity id</label>
        <input
          id="entity"
          name="entity"
          type="text"
          value="${filter.entity ?? ''}"
          autocomplete="off"
        />
      </div>
      <div>
        <label for="member">Member</label>
        <select id="member" name="member">
          <option value="">(anyone)</option>
          ${members}
        </select>
      </div>
      <div>
        <label for="kind">Kind</label>
        <select id="kind" name="kind">
          <option value="">(any)</option>
          ${kinds}
        </select>
      </div>
      <div>
        <label for="from">From day</label>
        <input id="from" name="from" type="date" value="${filter.from ?? ''}" />
      </div>
      <div>
        <label for="to">To day</label>
        <input id="to" name="to" type="date" value="${filter.to ?? ''}" />
      </div>
    </div>
    <button type="submit">Show</button>
    <a class="button secondary" href="${CONSOLE_PATHS.history}">Clear</a>
  </form>`;
}

/** Looking up an entity by words of its name, to open its history. */
function findForm(view: HistoryView): SafeHtml {
  const found =
    view.found === undefined
      ? undefined
      : view.found.length === 0
        ? html`<p role="status">Nothing of the group matches “${view.find}”.</p>`
        : html`<ul>
            ${view.found.map(
              (entity) =>
                html`<li>
                  <a href="${withQuery(CONSOLE_PATHS.history, { entity: entity.id })}"
                    >${entity.name}</a
                  >
                </li>`,
            )}
          </ul>`;
  return html`<form method="get" action="${CONSOLE_PATHS.history}" class="inline" role="search">
      <div>
        <label for="find">Find an entity’s history</label>
        <input id="find" name="find" type="search" value="${view.find}" autocomplete="off" />
      </div>
      <button type="submit">Find</button>
    </form>
    ${found}`;
}

/** The history page: the group's changes (owners) or one entity's (any member). */
export function historyPage(frame: ConsoleFrame, view: HistoryView): string {
  const { filter, page } = view;
  const scope =
    filter.entity === undefined
      ? undefined
      : html`<p>
          Changes of
          <strong>${page?.items[0]?.entityName ?? 'this entity'}</strong>
          <span class="muted">(${filter.entity})</span>
          ${
            view.groupWide
              ? html`· <a href="${CONSOLE_PATHS.history}">all the group’s changes</a>`
              : ''
          }
        </p>`;
  const notice = view.groupWide
    ? undefined
    : html`<p class="muted">
        The whole group’s changes, by member, kind and day, are for its owners. Any member sees an
        entity’s changes: open “Its history” on an item’s page, or find it here.
      </p>`;
  const list =
    page === undefined
      ? undefined
      : page.total === 0
        ? html`<p class="muted">No change matches.</p>`
        : html`<ol class="changes">
              ${page.items.map((entry) => changeItem(frame, entry))}
            </ol>
            ${pager(page.total, page.page, page.pageSize, (number) =>
              withQuery(CONSOLE_PATHS.history, { ...filter, page: number }),
            )}`;
  const download =
    page === undefined || page.total === 0
      ? undefined
      : html`<p>
          <a href="${withQuery(HISTORY_CSV_PATH, { ...filter })}" download>Download as CSV</a>
          <span class="muted">(one row per changed field)</span>
        </p>`;
  return consolePage(
    frame,
    'history',
    'History',
    html`${notice} ${findForm(view)} ${view.groupWide ? filterForm(view) : undefined}
    ${
      page === undefined
        ? undefined
        : html`<section aria-labelledby="changes">
            <h2 id="changes">Changes</h2>
            ${scope} ${download} ${list}
          </section>`
    }`,
  );
}
