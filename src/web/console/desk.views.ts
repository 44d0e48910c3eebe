import type { CheckoutDto, CheckoutPageDto } from '../../inventory/checkouts/dto/checkout.dto.js';
import type { CheckoutSort } from '../../inventory/checkouts/dto/list-checkouts.query.dto.js';
import type { EntityChildSummaryDto } from '../../inventory/entities/views/dto/entity-summary.dto.js';
import { html, type SafeHtml } from '../pages/page-html.js';
import {
  canWrite,
  consolePage,
  CONSOLE_PATHS,
  doneNotice,
  entityLink,
  pager,
  sortHeading,
  scrollingTable,
  withQuery,
  type ConsoleFrame,
} from './console-layout.js';

/** The desk's lists: what is out, what is overdue, what is due within a week. */
export const DESK_LISTS = {
  out: 'Out now',
  overdue: 'Overdue',
  soon: 'Due within a week',
} as const;
export type DeskList = keyof typeof DESK_LISTS;

export interface DeskView {
  find: string;
  /** What a search found when it was not one entity (absent when nothing was looked for). */
  found?: EntityChildSummaryDto[];
  list: DeskList;
  sort: CheckoutSort;
  order: 'asc' | 'desc';
  page: CheckoutPageDto;
  done?: string;
}

/** Who has a check-out: the member or the outside borrower. */
const who = (checkout: CheckoutDto): string =>
  checkout.member?.name ?? checkout.borrower ?? 'a deleted account';

const statusCell = (checkout: CheckoutDto): SafeHtml =>
  checkout.status === 'overdue'
    ? html`<span class="status-overdue">overdue</span>`
    : html`${checkout.status}`;

/** The check-out desk: find an item, and the lists of what is out. */
export function deskPage(frame: ConsoleFrame, view: DeskView): string {
  const found =
    view.found === undefined
      ? undefined
      : view.found.length === 0
        ? html`<p role="status">Nothing of the group matches “${view.find}”.</p>`
        : html`<h2>Found</h2>
            <ul>
              ${view.found.map(
                (entity) =>
                  html`<li>
                    ${entityLink(frame, entity.id, entity.name)}
                    <span class="muted">${entity.assetId} · ${entity.entityType.name}</span>
                  </li>`,
              )}
            </ul>`;
  const listHref = (list: DeskList, values: Record<string, string | number | undefined> = {}) =>
    withQuery(CONSOLE_PATHS.desk, { list, ...values });
  const current = { sort: view.sort, order: view.order };
  const sortHref = (sort: string, order: 'asc' | 'desc') => listHref(view.list, { sort, order });
  const tabs = (Object.keys(DESK_LISTS) as DeskList[]).map(
    (list) =>
      html`<li>
        <a href="${listHref(list)}" ${list === view.list ? html` aria-current="page"` : ''}
          >${DESK_LISTS[list]}</a
        >
      </li>`,
  );
  const rows = view.page.items.map(
    (checkout) =>
      html`<tr>
        <td>${entityLink(frame, checkout.entityId, checkout.entityName)}</td>
        <td>${who(checkout)}</td>
        <td>${checkout.outstanding}</td>
        <td>${checkout.dueOn ?? '—'}</td>
        <td>${checkout.checkedOutAt.slice(0, 10)}</td>
        <td>${statusCell(checkout)}</td>
      </tr>`,
  );
  const table =
    view.page.total === 0
      ? html`<p class="muted">Nothing here.</p>`
      : html`${scrollingTable(
          DESK_LISTS[view.list],
          html`
            <table>
              <caption class="visually-hidden">
                ${DESK_LISTS[view.list]}
              </caption>
              <thead>
                <tr>
                  ${sortHeading('Item', 'item', current, sortHref)}
                  ${sortHeading('Lent to', 'who', current, sortHref)}
                  <th scope="col">Out</th>
                  ${sortHeading('Due', 'due', current, sortHref)}
                  ${sortHeading('Lent on', 'checkedOut', current, sortHref)}
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                ${rows}
              </tbody>
            </table>
          `,
        )}
        ${pager(view.page.total, view.page.page, view.page.pageSize, (page) =>
          listHref(view.list, { sort: view.sort, order: view.order, page }),
        )}`;
  return consolePage(
    frame,
    'desk',
    'Check-out desk',
    html`${doneNotice(view.done)}
      <form method="get" action="${CONSOLE_PATHS.desk}" class="inline" role="search">
        <div>
          <label for="find">Find an item</label>
          <input
            id="find"
            name="find"
            type="search"
            value="${view.find}"
            autofocus
            autocomplete="off"
            aria-describedby="find-hint"
          />
        </div>
        <button type="submit">Find</button>
        <button type="button" class="secondary" data-scan hidden>Scan a label</button>
      </form>
      <p id="find-hint" class="muted">
        An asset id (<code>000-123</code>), a label's link (scanned or pasted), or words of its name
        or description.
      </p>
      <div class="scan" data-scan-view hidden>
        <video muted playsinline aria-label="The camera, reading a label"></video>
        <p class="muted" data-scan-status role="status"></p>
      </div>
      ${found}
      <section aria-labelledby="lists">
        <h2 id="lists">Check-outs</h2>
        <ul class="tabs">
          ${tabs}
        </ul>
        ${table}
      </section>`,
  );
}

export interface ItemView {
  entity: {
    id: string;
    name: string;
    assetId: string;
    quantity: number;
    location: string | undefined;
    tags: string[];
  };
  /** What is not out: the quantity less what its check-outs have out. */
  available: number;
  checkouts: CheckoutDto[];
  members: { id: string; name: string }[];
  done?: string;
}

/** One entity at the desk: lend it, take it back, and its check-outs. */
export function itemPage(frame: ConsoleFrame, view: ItemView): string {
  const { entity } = view;
  const base = CONSOLE_PATHS.item(entity.id);
  const back = html`<input type="hidden" name="back" value="${base}" />`;
  const open = view.checkouts.filter((checkout) => checkout.status !== 'returned');
  const lend =
    !canWrite(frame) || view.available <= 0
      ? canWrite(frame)
        ? html`<p class="muted">All of it is out.</p>`
        : undefined
      : html`<section aria-labelledby="lend">
          <h2 id="lend">Check out</h2>
          <form method="post" action="${base}/checkouts">
            ${back}
            <div class="fields">
              <div>
                <label for="quantity">How many</label>
                <input
                  id="quantity"
                  name="quantity"
                  type="number"
                  min="1"
                  max="${view.available}"
                  value="1"
                  required
                />
              </div>
              <div>
                <label for="memberId">To a member</label>
                <select id="memberId" name="memberId">
                  <option value="">(an outside borrower)</option>
                  ${view.members.map(
                    (member) => html`<option value="${member.id}">${member.name}</option>`,
                  )}
                </select>
              </div>
              <div>
                <label for="borrower">Or a borrower</label>
                <input id="borrower" name="borrower" type="text" maxlength="255" />
              </div>
              <div>
                <label for="dueOn">Due back</label>
                <input id="dueOn" name="dueOn" type="date" />
              </div>
            </div>
            <label for="notes">Note</label>
            <textarea id="notes" name="notes" rows="2" maxlength="1000"></textarea>
            <button type="submit">Check out</button>
          </form>
        </section>`;
  const returns =
    open.length === 0
      ? html`<p class="muted">Nothing of it is out.</p>`
      : scrollingTable(
          'Out now',
          html`
            <table>
              <caption class="visually-hidden">
                Out now
              </caption>
              <thead>
                <tr>
                  <th scope="col">Lent to</th>
                  <th scope="col">Out</th>
                  <th scope="col">Due</th>
                  <th scope="col">Note</th>
                  ${canWrite(frame) ? html`<th scope="col">Return</th>` : ''}
                </tr>
              </thead>
              <tbody>
                ${open.map(
                  (checkout) =>
                    html`<tr>
                      <td>${who(checkout)}</td>
                      <td>${checkout.outstanding}</td>
                      <td>
                        ${checkout.dueOn ?? '—'}
                        ${checkout.status === 'overdue' ? statusCell(checkout) : ''}
                      </td>
                      <td>${checkout.notes}</td>
                      ${
                        canWrite(frame)
                          ? html`<td>
                              <form
                                method="post"
                                action="${base}/checkouts/${checkout.id}/return"
                                class="inline"
                              >
                                ${back}
                                <div>
                                  <label for="q-${checkout.id}">How many</label>
                                  <input
                                    id="q-${checkout.id}"
                                    name="quantity"
                                    type="number"
                                    min="1"
                                    max="${checkout.outstanding}"
                                    value="${checkout.outstanding}"
                                  />
                                </div>
                                <div>
                                  <label for="n-${checkout.id}">Note</label>
                                  <input
                                    id="n-${checkout.id}"
                                    name="notes"
                                    type="text"
                                    maxlength="500"
                                  />
                                </div>
                                <button type="submit" class="small">Return</button>
                              </form>
                            </td>`
                          : ''
                      }
                    </tr>`,
                )}
              </tbody>
            </table>
          `,
        );
  const history =
    view.checkouts.length === 0
      ? html`<p class="muted">It has never been lent.</p>`
      : scrollingTable(
          `Every check-out of ${entity.name}`,
          html`
            <table>
              <caption class="visually-hidden">
                Every check-out of ${entity.name}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Lent on</th>
                  <th scope="col">To</th>
                  <th scope="col">How many</th>
                  <th scope="col">Due</th>
                  <th scope="col">Back</th>
                  <th scope="col">By</th>
                </tr>
              </thead>
              <tbody>
                ${view.checkouts.map(
                  (checkout) =>
                    html`<tr>
                      <td>${checkout.checkedOutAt.slice(0, 10)}</td>
                      <td>${who(checkout)}</td>
                      <td>${checkout.quantity}</td>
                      <td>${checkout.dueOn ?? '—'}</td>
                      <td>
                        ${
                          checkout.returnedAt?.slice(0, 10) ??
                          html`${checkout.returnedQuantity} of ${checkout.quantity}`
                        }
                      </td>
                      <td>${checkout.checkedOutBy?.name ?? '—'}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          `,
        );
  return consolePage(
    frame,
    'desk',
    entity.name,
    html`${doneNotice(view.done)}
      <dl>
        <dt>Asset id</dt>
        <dd>${entity.assetId}</dd>
        <dt>Where</dt>
        <dd>${entity.location ?? '—'}</dd>
        <dt>Quantity</dt>
        <dd>${entity.quantity}, of which ${view.available} available</dd>
        <dt>Tags</dt>
        <dd>${entity.tags.length === 0 ? '—' : entity.tags.join(', ')}</dd>
      </dl>
      <p>
        ${frame.webUi ? html`<a href="/item/${entity.id}">Open it in the web UI</a> ·` : ''}
        <a href="${withQuery(CONSOLE_PATHS.history, { entity: entity.id })}">Its history</a> ·
        <a href="${CONSOLE_PATHS.stock}/items/${entity.id}">Its stock</a> ·
        <a href="${CONSOLE_PATHS.desk}">Back to the desk</a>
      </p>
      ${lend}
      <section aria-labelledby="out">
        <h2 id="out">Out now</h2>
        ${returns}
      </section>
      <section aria-labelledby="history">
        <h2 id="history">Its check-outs</h2>
        ${history}
      </section>`,
  );
}
