import type {
  EntityChildSummaryDto,
  EntityPageDto,
} from '../../inventory/entities/views/dto/entity-summary.dto.js';
import {
  BULK_FIELD_NAMES,
  type BulkFieldName,
} from '../../inventory/entities/bulk/dto/bulk-entity-change.dto.js';
import type { TagSummaryDto } from '../../inventory/tags/dto/tag-summary.dto.js';
import { html, SafeHtml } from '../pages/page-html.js';
import {
  consolePage,
  CONSOLE_PATHS,
  entityLink,
  pager,
  withQuery,
  type ConsoleFrame,
  scrollingTable,
} from './console-layout.js';

/** What the console's bulk changes do, as the bulk API names the actions. */
export const CONSOLE_BULK_ACTIONS = {
  move: 'Move to a location',
  addTags: 'Add a tag',
  removeTags: 'Remove a tag',
  archive: 'Archive',
  unarchive: 'Unarchive',
  setFields: 'Set a field',
} as const;
export type ConsoleBulkAction = keyof typeof CONSOLE_BULK_ACTIONS;

/** Which entities a bulk change is for: those the filters match, or the ticked ones of those. */
export interface BulkChoice {
  q: string;
  tags: string[];
  /** Entities directly in this location ('' for anywhere). */
  location: string;
  archived: boolean;
}

/** The change and its argument. */
export interface BulkChangeForm {
  action: ConsoleBulkAction;
  parentId: string;
  tagId: string;
  field: string;
  value: string;
}

/** A location to choose, with how deep it sits in the tree (0 at the top). */
export interface LocationOption {
  id: string;
  name: string;
  depth: number;
}

/** The form values that say which entities: the filters, and with `ids` a hand-made choice. */
function choiceFields(choice: BulkChoice): SafeHtml {
  return html`<input type="hidden" name="q" value="${choice.q}" />
    ${choice.tags.map((tag) => html`<input type="hidden" name="tags" value="${tag}" />`)}
    <input type="hidden" name="location" value="${choice.location}" />
    ${choice.archived ? html`<input type="hidden" name="archived" value="1" />` : ''}`;
}

/** The choice with whether it is all matching or the ticked `ids`. */
const selectionFields = (choice: BulkChoice, ids?: string[]): SafeHtml =>
  html`${choiceFields(choice)}
    <input type="hidden" name="selection" value="${ids === undefined ? 'matching' : 'chosen'}" />
    ${(ids ?? []).map((id) => html`<input type="hidden" name="ids" value="${id}" />`)}`;

function changeFields(change: BulkChangeForm): SafeHtml {
  return html`<input type="hidden" name="action" value="${change.action}" />
    <input type="hidden" name="parentId" value="${change.parentId}" />
    <input type="hidden" name="tagId" value="${change.tagId}" />
    <input type="hidden" name="field" value="${change.field}" />
    <input type="hidden" name="value" value="${change.value}" />`;
}

const choiceQuery = (choice: BulkChoice): Record<string, string | undefined> => ({
  q: choice.q,
  location: choice.location,
  archived: choice.archived ? '1' : undefined,
});

/** The choose page's address for this choice (tags repeated, as the form sends them). */
export function choiceHref(choice: BulkChoice, page?: number): string {
  const base = withQuery(CONSOLE_PATHS.bulk, { ...choiceQuery(choice), page });
  const tags = choice.tags.map((tag) => `tags=${encodeURIComponent(tag)}`).join('&');
  return tags === '' ? base : `${base}${base.includes('?') ? '&' : '?'}${tags}`;
}

/**
 * The group's locations as `<option>`s, each indented by its depth, none selected: rendered once
 * per version of the location tree (a group may have thousands) and shared by the page's selects.
 */
export const renderLocationOptions = (locations: LocationOption[]): SafeHtml =>
  html`${locations.map(
    (location) =>
      html`<option value="${location.id}">
        ${'\u00a0\u00a0'.repeat(location.depth)}${location.name}
      </option>`,
  )}`;

/** The rendered options with the one of location `selected` (a UUID) selected. */
const locationOptions = (options: SafeHtml, selected: string): SafeHtml =>
  selected === ''
    ? options
    : new SafeHtml(options.text.replace(`value="${selected}"`, `value="${selected}" selected`));

const tagNames = (entity: EntityChildSummaryDto): string =>
  entity.tags.map((tag) => tag.name).join(', ');

export interface ChooseView {
  choice: BulkChoice;
  tags: TagSummaryDto[];
  /** The group's locations as options (`renderLocationOptions`). */
  locationOptions: SafeHtml;
  page: EntityPageDto;
  /** The most entities one change takes. */
  most: number;
}

/** Step 1: choose the entities by words, tags and location, tick some or take all, and the change. */
export function choosePage(frame: ConsoleFrame, view: ChooseView): string {
  const { choice, page } = view;
  const rows = page.items.map(
    (entity) =>
      html`<tr>
        <td>
          <input
            type="checkbox"
            name="ids"
            value="${entity.id}"
            aria-label="Choose ${entity.name}"
          />
        </td>
        <td>${entityLink(frame, entity.id, entity.name)}</td>
        <td>${entity.assetId}</td>
        <td>${entity.parent?.name ?? '—'}</td>
        <td>${tagNames(entity)}</td>
        <td>${entity.archived ? 'archived' : ''}</td>
      </tr>`,
  );
  const list =
    page.total === 0
      ? html`<p class="muted" role="status">Nothing matches.</p>`
      : html`<p role="status">
            ${page.total} ${page.total === 1 ? 'entity matches' : 'entities match'}.
          </p>
          ${scrollingTable(
            `Matching entities`,
            html`
              <table>
                <caption class="visually-hidden">
                  Matching entities
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Choose</th>
                    <th scope="col">Name</th>
                    <th scope="col">Asset id</th>
                    <th scope="col">In</th>
                    <th scope="col">Tags</th>
                    <th scope="col">Archived</th>
                  </tr>
                </thead>
                <tbody>
                  ${rows}
                </tbody>
              </table>
            `,
          )}
          ${pager(page.total, page.page, page.pageSize, (number) => choiceHref(choice, number))}`;
  const actions = (Object.keys(CONSOLE_BULK_ACTIONS) as ConsoleBulkAction[]).map(
    (action, index) =>
      html`<label class="check"
        ><input type="radio" name="action" value="${action}" ${index === 0 ? html`checked` : ''} />
        ${CONSOLE_BULK_ACTIONS[action]}</label
      >`,
  );
  const tagOptions = view.tags.map((tag) => html`<option value="${tag.id}">${tag.name}</option>`);
  const change =
    page.total === 0
      ? undefined
      : html`<section aria-labelledby="change">
          <h2 id="change">Change</h2>
          <fieldset>
            <legend>What to do</legend>
            ${actions}
          </fieldset>
          <div class="fields">
            <div>
              <label for="parentId">Move to</label>
              <select id="parentId" name="parentId">
                <option value="">(choose a location)</option>
                ${view.locationOptions}
              </select>
            </div>
            <div>
              <label for="tagId">Tag to add or remove</label>
              <select id="tagId" name="tagId">
                <option value="">(choose a tag)</option>
                ${tagOptions}
              </select>
            </div>
            <div>
              <label for="field">Field to set</label>
              <select id="field" name="field">
                <option value="">(choose a field)</option>
                ${SETTABLE_FIELDS.map((field) => html`<option value="${field}">${field}</option>`)}
              </select>
            </div>
            <div>
              <label for="value">Its value</label>
              <input
                id="value"
                name="value"
                type="text"
                maxlength="1000"
                aria-describedby="value-hint"
              />
            </div>
          </div>
          <p id="value-hint" class="muted">
            Yes or no for insured and lifetimeWarranty; a day (YYYY-MM-DD) for the dates; empty
            clears a text or a day.
          </p>
          <p class="muted">
            Tick entities on this page to change only those, or take all that match (at most
            ${view.most} at once). Nothing changes before you apply the preview.
          </p>
          <button type="submit" name="selection" value="chosen">Preview the ticked ones</button>
          <button type="submit" name="selection" value="matching">
            Preview all ${page.total} matching
          </button>
        </section>`;
  return consolePage(
    frame,
    'bulk',
    'Bulk changes',
    html`<section aria-labelledby="choose">
        <h2 id="choose">Choose</h2>
        <form method="get" action="${CONSOLE_PATHS.bulk}" role="search">
          <div class="fields">
            <div>
              <label for="q">Words</label>
              <input id="q" name="q" type="search" value="${choice.q}" maxlength="255" />
            </div>
            <div>
              <label for="tags">Tags (any of them)</label>
              <select
                id="tags"
                name="tags"
                multiple
                size="${Math.min(5, Math.max(2, view.tags.length))}"
              >
                ${view.tags.map(
                  (tag) =>
                    html`<option
                      value="${tag.id}"
                      ${choice.tags.includes(tag.id) ? html`selected` : ''}
                    >
                      ${tag.name}
                    </option>`,
                )}
              </select>
            </div>
            <div>
              <label for="location">Directly in</label>
              <select id="location" name="location">
                <option value="">(anywhere)</option>
                ${locationOptions(view.locationOptions, choice.location)}
              </select>
            </div>
          </div>
          <label class="check"
            ><input
              type="checkbox"
              name="archived"
              value="1"
              ${choice.archived ? html`checked` : ''}
            />
            Include archived entities</label
          >
          <button type="submit">Show matching</button>
        </form>
      </section>
      <form method="post" action="${CONSOLE_PATHS.bulk}/preview">
        ${choiceFields(choice)}
        <section aria-labelledby="matching">
          <h2 id="matching">Matching</h2>
          ${list}
        </section>
        ${change}
      </form>`,
  );
}

/** The entity attributes the console sets in bulk: the bulk API's, but the entity type. */
export type SettableField = Exclude<BulkFieldName, 'entityTypeId'>;
export const SETTABLE_FIELDS = BULK_FIELD_NAMES.filter(
  (field): field is SettableField => field !== 'entityTypeId',
);

/** One entity of a preview: what it is now and what the change makes it. */
export interface PreviewRow {
  entity: EntityChildSummaryDto;
  before: string;
  after: string;
  /** Whether the entity already is as the change makes it (then it is left alone). */
  unchanged: boolean;
}

export interface PreviewView {
  choice: BulkChoice;
  /** The hand-made choice, when there is one. */
  ids?: string[];
  change: BulkChangeForm;
  /** What the change does, in words ("move to Garage"). */
  summary: string;
  /** What the before and after columns show ("Location"). */
  aspect: string;
  count: number;
  /** A digest of the chosen ids, that the apply checks. */
  fingerprint: string;
  rows: PreviewRow[];
  page: number;
  pageSize: number;
  most: number;
  /** Why the preview is shown again instead of applied. */
  changed?: string;
}

/** A pager of a posted form: its buttons post the same form with another page. */
function postedPager(total: number, page: number, pageSize: number): SafeHtml {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const previous =
    page > 1
      ? html`<button type="submit" class="secondary small" name="page" value="${page - 1}">
          Previous
        </button>`
      : '';
  const next =
    page < pages
      ? html`<button type="submit" class="secondary small" name="page" value="${page + 1}">
          Next
        </button>`
      : '';
  return html`<div class="pager">
    ${previous}<span class="muted">Page ${Math.min(page, pages)} of ${pages} · ${total} in all</span
    >${next}
  </div>`;
}

/** Step 2: what the change will do to each chosen entity, with the button that applies it. */
export function previewPage(frame: ConsoleFrame, view: PreviewView): string {
  const hidden = html`${selectionFields(view.choice, view.ids)}${changeFields(view.change)}`;
  const rows = view.rows.map(
    (row) =>
      html`<tr>
        <td>${entityLink(frame, row.entity.id, row.entity.name)}</td>
        <td>${row.entity.assetId}</td>
        <td>${row.before}</td>
        <td>${row.after}</td>
        <td>${row.unchanged ? 'already so' : 'changes'}</td>
      </tr>`,
  );
  const tooMany = view.count > view.most;
  const apply =
    view.count === 0
      ? html`<p class="muted">Nothing to change.</p>`
      : tooMany
        ? html`<p class="alert" role="alert">
            More than ${view.most} entities match: a bulk change takes at most ${view.most} at once.
            Narrow the choice.
          </p>`
        : html`<form method="post" action="${CONSOLE_PATHS.bulk}/apply">
            ${hidden}
            <input type="hidden" name="count" value="${view.count}" />
            <input type="hidden" name="fingerprint" value="${view.fingerprint}" />
            <button type="submit">
              Apply to ${view.count} ${view.count === 1 ? 'entity' : 'entities'}
            </button>
          </form>`;
  return consolePage(
    frame,
    'bulk',
    'Preview of the bulk change',
    html`${view.changed ? html`<p class="alert" role="alert">${view.changed}</p>` : ''}
      <p role="status">
        ${view.summary}: ${tooMany ? `more than ${view.most}` : view.count}
        ${view.count === 1 ? 'entity' : 'entities'}.
      </p>
      ${apply}
      <p><a href="${choiceHref(view.choice)}">Back to the choice</a></p>
      ${
        view.rows.length === 0
          ? ''
          : html`<section aria-labelledby="what">
              <h2 id="what">What changes</h2>
              <form method="post" action="${CONSOLE_PATHS.bulk}/preview">
                ${hidden}
                ${scrollingTable(
                  `${view.aspect} of each chosen entity, before and after`,
                  html`
                    <table>
                      <caption class="visually-hidden">
                        ${view.aspect} of each chosen entity, before and after
                      </caption>
                      <thead>
                        <tr>
                          <th scope="col">Name</th>
                          <th scope="col">Asset id</th>
                          <th scope="col">${view.aspect} now</th>
                          <th scope="col">${view.aspect} after</th>
                          <th scope="col">Change</th>
                        </tr>
                      </thead>
                      <tbody>
                        ${rows}
                      </tbody>
                    </table>
                  `,
                )}
                ${postedPager(Math.min(view.count, view.most), view.page, view.pageSize)}
              </form>
            </section>`
      }`,
  );
}

export interface ResultView {
  /** What was done, with the count first ("200 moved to Garage"). */
  done: string;
  chosen: number;
  updated: number;
  /** Where to look at what changed. */
  next?: { href: string; label: string };
}

/** Step 3: what the change did. */
export function resultPage(frame: ConsoleFrame, view: ResultView): string {
  const alone = Math.max(0, view.chosen - view.updated);
  return consolePage(
    frame,
    'bulk',
    'Bulk change done',
    html`<p class="notice" role="status">${view.done}.</p>
      <dl>
        <dt>Chosen</dt>
        <dd>${view.chosen}</dd>
        <dt>Changed</dt>
        <dd>${view.updated}</dd>
        <dt>Left alone</dt>
        <dd>${alone}${alone > 0 ? ' (already so)' : ''}</dd>
      </dl>
      <p class="muted">
        The change was made in one transaction: all of the chosen entities or none of them.
      </p>
      <ul class="links">
        ${view.next ? html`<li><a href="${view.next.href}">${view.next.label}</a></li>` : ''}
        <li><a href="${CONSOLE_PATHS.bulk}">Another bulk change</a></li>
      </ul>`,
  );
}
