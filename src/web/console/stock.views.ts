import type {
  ExpiringItemDto,
  LowStockItemDto,
  StockedItem,
  StockListPage,
} from '../../inventory/stock/dto/stock-listing.dto.js';
import { MAX_EXPIRY_WINDOW_DAYS } from '../../inventory/stock/dto/list-expiring.query.dto.js';
import { MAX_ADJUSTMENT_REASON } from '../../inventory/stock/dto/create-stock-adjustment.dto.js';
import { html, type HtmlValue, type SafeHtml } from '../pages/page-html.js';
import {
  canWrite,
  consolePage,
  CONSOLE_PATHS,
  doneNotice,
  entityLink,
  pager,
  withQuery,
  type ConsoleFrame,
  scrollingTable,
} from './console-layout.js';

/** The stock page's lists. */
export const STOCK_LISTS = {
  stocked: 'Stocked items',
  low: 'At or below minimum',
  expiring: 'Expiring',
} as const;
export type StockList = keyof typeof STOCK_LISTS;

/** Where the stock page's own pages are. */
export const STOCK_PATHS = {
  shoppingList: `${CONSOLE_PATHS.stock}/shopping-list.csv`,
  item: (id: string) => `${CONSOLE_PATHS.stock}/items/${id}`,
  adjustments: (id: string) => `${CONSOLE_PATHS.stock}/items/${id}/adjustments`,
} as const;

export type StockListView =
  | { list: 'stocked'; page: StockListPage<StockedItem> }
  | { list: 'low'; page: StockListPage<LowStockItemDto> }
  | { list: 'expiring'; within: number; page: StockListPage<ExpiringItemDto> };

/** Where an entity is: its location's names from the top, or a dash. */
const where = (location: { name: string }[]): string =>
  location.length === 0 ? '—' : location.map((step) => step.name).join(' / ');

/** A link to an entity's stock page (to adjust it), for those who may. */
const adjustCell = (frame: ConsoleFrame, item: { id: string; name: string }): SafeHtml | '' =>
  canWrite(frame)
    ? html`<td>
        <a href="${STOCK_PATHS.item(item.id)}" aria-label="Adjust ${item.name}">Adjust</a>
      </td>`
    : '';

/** A table of `caption` with these headings and rows, or a line saying there is nothing. */
function table(
  frame: ConsoleFrame,
  caption: string,
  headings: string[],
  rows: HtmlValue[],
): SafeHtml {
  if (rows.length === 0) return html`<p class="muted">Nothing here.</p>`;
  return html`${scrollingTable(
    `${caption}`,
    html`
      <table>
        <caption class="visually-hidden">
          ${caption}
        </caption>
        <thead>
          <tr>
            ${headings.map((heading) => html`<th scope="col">${heading}</th>`)}
            ${canWrite(frame) ? html`<th scope="col">Adjust</th>` : ''}
          </tr>
        </thead>
        <tbody>
          ${rows}
        </tbody>
      </table>
    `,
  )}`;
}

function listBody(frame: ConsoleFrame, view: StockListView): SafeHtml {
  switch (view.list) {
    case 'stocked':
      return table(
        frame,
        STOCK_LISTS.stocked,
        ['Item', 'Where', 'Quantity', 'Minimum', 'Reorder', 'Expires'],
        view.page.items.map(
          (item) =>
            html`<tr>
              <td>${entityLink(frame, item.id, item.name)}</td>
              <td>${where(item.location)}</td>
              <td>
                ${item.quantity}${item.low ? html` <span class="status-overdue">low</span>` : ''}
              </td>
              <td>${item.minQuantity ?? '—'}</td>
              <td>${item.reorderQuantity ?? '—'}</td>
              <td>${item.expiresOn ?? '—'}</td>
              ${adjustCell(frame, item)}
            </tr>`,
        ),
      );
    case 'low':
      return html`<p>
          <a href="${STOCK_PATHS.shoppingList}" download>Download CSV</a>
          <span class="muted">(the shopping list: all of it, as a spreadsheet)</span>
        </p>
        ${table(
          frame,
          STOCK_LISTS.low,
          ['Item', 'Asset id', 'Where', 'Quantity', 'Minimum', 'To buy'],
          view.page.items.map(
            (item) =>
              html`<tr>
                <td>${entityLink(frame, item.id, item.name)}</td>
                <td>${item.assetId || '—'}</td>
                <td>${where(item.location)}</td>
                <td>${item.quantity}</td>
                <td>${item.minQuantity}</td>
                <td>${item.reorder}</td>
                ${adjustCell(frame, item)}
              </tr>`,
          ),
        )}`;
    case 'expiring':
      return html`<form method="get" action="${CONSOLE_PATHS.stock}" class="inline">
          <input type="hidden" name="list" value="expiring" />
          <div>
            <label for="within">Expiring within (days)</label>
            <input
              id="within"
              name="within"
              type="number"
              min="0"
              max="${MAX_EXPIRY_WINDOW_DAYS}"
              value="${view.within}"
              required
            />
          </div>
          <button type="submit">Show</button>
        </form>
        ${table(
          frame,
          `${STOCK_LISTS.expiring} within ${view.within} days, and expired`,
          ['Item', 'Where', 'Quantity', 'Expires', 'Days left'],
          view.page.items.map(
            (item) =>
              html`<tr>
                <td>${entityLink(frame, item.id, item.name)}</td>
                <td>${where(item.location)}</td>
                <td>${item.quantity}</td>
                <td>
                  ${item.expiresOn}${
                    item.expired ? html` <span class="status-overdue">expired</span>` : ''
                  }
                </td>
                <td>${item.daysLeft}</td>
                ${adjustCell(frame, item)}
              </tr>`,
          ),
        )}`;
  }
}

/** The stock page: the stocked items, those at or below their minimum, what expires. */
export function stockPage(frame: ConsoleFrame, view: StockListView, done?: string): string {
  const within = view.list === 'expiring' ? view.within : undefined;
  const listHref = (list: StockList, page?: number) =>
    withQuery(CONSOLE_PATHS.stock, {
      list,
      ...(list === 'expiring' ? { within } : {}),
      page,
    });
  const tabs = (Object.keys(STOCK_LISTS) as StockList[]).map(
    (list) =>
      html`<li>
        <a href="${listHref(list)}" ${list === view.list ? html` aria-current="page"` : ''}
          >${STOCK_LISTS[list]}</a
        >
      </li>`,
  );
  return consolePage(
    frame,
    'stock',
    'Stock',
    html`${doneNotice(done)}
      <nav aria-label="Stock lists">
        <ul class="tabs">
          ${tabs}
        </ul>
      </nav>
      <section aria-labelledby="list">
        <h2 id="list">${STOCK_LISTS[view.list]}</h2>
        ${listBody(frame, view)}
        ${
          view.page.total === 0
            ? ''
            : pager(view.page.total, view.page.page, view.page.pageSize, (page) =>
                listHref(view.list, page),
              )
        }
      </section>`,
  );
}

export interface StockItemView {
  entity: { id: string; name: string; assetId: string; quantity: number; location: string };
  stock: {
    minQuantity: number | null;
    reorderQuantity: number | null;
    expiresOn: string | null;
    notes: string;
  };
  done?: string;
}

/** One entity's stock: its level and settings, and a form to adjust the level with a reason. */
export function stockItemPage(frame: ConsoleFrame, view: StockItemView): string {
  const { entity, stock } = view;
  const low = stock.minQuantity !== null && entity.quantity <= stock.minQuantity;
  const adjust = canWrite(frame)
    ? html`<section aria-labelledby="adjust">
        <h2 id="adjust">Adjust the level</h2>
        <form method="post" action="${STOCK_PATHS.adjustments(entity.id)}">
          <div class="fields">
            <div>
              <label for="quantity">New quantity</label>
              <input id="quantity" name="quantity" type="number" min="0" step="any" />
            </div>
            <div>
              <label for="change">Or add (a negative number takes away)</label>
              <input id="change" name="change" type="number" step="any" />
            </div>
          </div>
          <label for="reason">Reason</label>
          <input
            id="reason"
            name="reason"
            type="text"
            maxlength="${MAX_ADJUSTMENT_REASON}"
            required
            aria-describedby="reason-hint"
          />
          <p id="reason-hint" class="muted">Kept with the change in the item's history.</p>
          <button type="submit">Adjust</button>
        </form>
      </section>`
    : undefined;
  return consolePage(
    frame,
    'stock',
    `Stock of ${entity.name}`,
    html`${doneNotice(view.done)}
      <dl>
        <dt>Asset id</dt>
        <dd>${entity.assetId || '—'}</dd>
        <dt>Where</dt>
        <dd>${entity.location}</dd>
        <dt>Quantity</dt>
        <dd>
          ${entity.quantity}${
            low ? html` <span class="status-overdue">at or below its minimum</span>` : ''
          }
        </dd>
        <dt>Minimum</dt>
        <dd>${stock.minQuantity ?? '—'}</dd>
        <dt>Reorder quantity</dt>
        <dd>${stock.reorderQuantity ?? '—'}</dd>
        <dt>Expires</dt>
        <dd>${stock.expiresOn ?? '—'}</dd>
        <dt>Notes</dt>
        <dd>${stock.notes || '—'}</dd>
      </dl>
      <p>
        <a href="${CONSOLE_PATHS.item(entity.id)}">Its page at the desk</a> ·
        <a href="${withQuery(CONSOLE_PATHS.history, { entity: entity.id })}">Its history</a> ·
        <a href="${CONSOLE_PATHS.stock}">Back to stock</a>
      </p>
      ${adjust}`,
  );
}
