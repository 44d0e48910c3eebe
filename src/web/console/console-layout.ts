import { html, type HtmlValue, type SafeHtml } from '../pages/page-html.js';
import { PAGE_PATHS } from '../pages/page-paths.js';

/** Who is looking at a console page, and in which group: what every page's frame shows. */
export interface ConsoleFrame {
  userName: string;
  groupName: string;
  role: 'owner' | 'user' | 'viewer';
  /** An instance administrator (TROVE_ADMIN_EMAILS, or a provider group at sign-in). */
  instanceAdmin: boolean;
  /** Homebox's web UI is served at this address (TROVE_WEB_UI_DIR): entities link to it. */
  webUi: boolean;
}

/** The console's sections, as the navigation lists them. */
export type ConsoleSection = 'desk' | 'stock' | 'history' | 'bulk' | 'admin' | 'account';

export const CONSOLE_PATHS = {
  desk: PAGE_PATHS.console,
  stock: `${PAGE_PATHS.console}/stock`,
  history: `${PAGE_PATHS.console}/history`,
  bulk: `${PAGE_PATHS.console}/bulk`,
  admin: `${PAGE_PATHS.console}/admin`,
  account: `${PAGE_PATHS.console}/account`,
  script: `${PAGE_PATHS.console}/assets/console.js`,
  item: (id: string) => `${PAGE_PATHS.console}/items/${id}`,
} as const;

/** Whether the frame's member may change things (owners and users; viewers only read). */
export const canWrite = (frame: ConsoleFrame): boolean => frame.role !== 'viewer';

const SECTIONS: { section: ConsoleSection; label: string; shown: (f: ConsoleFrame) => boolean }[] =
  [
    { section: 'desk', label: 'Check-out desk', shown: () => true },
    { section: 'stock', label: 'Stock', shown: () => true },
    { section: 'history', label: 'History', shown: () => true },
    { section: 'bulk', label: 'Bulk changes', shown: canWrite },
    {
      section: 'admin',
      label: 'Administration',
      shown: (frame) => frame.role === 'owner' || frame.instanceAdmin,
    },
    { section: 'account', label: 'Your account', shown: () => true },
  ];

/** A link to an entity: its console page, and its page in Homebox's web UI when that is served. */
export function entityLink(frame: ConsoleFrame, id: string, name: string): SafeHtml {
  const web = frame.webUi
    ? html` <a class="muted" href="/item/${id}" title="Open ${name} in the web UI">(web UI)</a>`
    : undefined;
  return html`<a href="${CONSOLE_PATHS.item(id)}">${name}</a>${web}`;
}

/** A console page: the bar with the navigation and who is signed in, then the page's content. */
export function consolePage(
  frame: ConsoleFrame,
  section: ConsoleSection,
  title: string,
  body: HtmlValue,
): string {
  const nav = SECTIONS.filter(({ shown }) => shown(frame)).map(
    ({ section: each, label }) =>
      html`<li>
        <a href="${CONSOLE_PATHS[each]}" ${each === section ? html` aria-current="page"` : ''}
          >${label}</a
        >
      </li>`,
  );
  const webUi = frame.webUi ? html`<li><a href="/">Web UI</a></li>` : undefined;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${title} · Trove console</title>
        <link rel="stylesheet" href="${PAGE_PATHS.stylesheet}" />
        <script src="${CONSOLE_PATHS.script}" defer></script>
      </head>
      <body class="console">
        <header class="bar">
          <a class="brand" href="${CONSOLE_PATHS.desk}">Trove</a>
          <nav aria-label="Console">
            <ul>
              ${nav}${webUi}
            </ul>
          </nav>
          <span class="who">${frame.userName} · ${frame.groupName} (${frame.role})</span>
          <form method="post" action="${PAGE_PATHS.signOutForm}">
            <button type="submit" class="secondary">Sign out</button>
          </form>
        </header>
        <main>
          <h1>${title}</h1>
          ${body}
        </main>
      </body>
    </html> `.text;
}

/**
 * Where entity `id` is, from its path (`GET /entities/{id}/path`): the names above it from the
 * top, joined with " / ", or undefined at the top.
 */
export function whereIs(id: string, path: { id: string; name: string }[]): string | undefined {
  const above = path.filter((step) => step.id !== id).map((step) => step.name);
  return above.length === 0 ? undefined : above.join(' / ');
}

/** A path with a query of the given values, leaving out the empty ones. */
export function withQuery(
  path: string,
  values: Record<string, string | number | undefined>,
): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && value !== '') query.set(name, String(value));
  }
  const text = query.toString();
  return text === '' ? path : `${path}?${text}`;
}

/** "Previous" and "next" links of a paged list, with where it stands. */
export function pager(
  total: number,
  page: number,
  pageSize: number,
  hrefOf: (page: number) => string,
): SafeHtml {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const previous = page > 1 ? html`<a href="${hrefOf(page - 1)}" rel="prev">Previous</a>` : '';
  const next = page < pages ? html`<a href="${hrefOf(page + 1)}" rel="next">Next</a>` : '';
  return html`<p class="pager">
    ${previous}<span class="muted">Page ${Math.min(page, pages)} of ${pages} · ${total} in all</span
    >${next}
  </p>`;
}

/** A column heading that sorts the list by `key`, turning the order round when it already does. */
export function sortHeading(
  label: string,
  key: string,
  current: { sort: string; order: 'asc' | 'desc' },
  hrefOf: (sort: string, order: 'asc' | 'desc') => string,
): SafeHtml {
  const active = current.sort === key;
  const order = active && current.order === 'asc' ? 'desc' : 'asc';
  const sorted = active ? (current.order === 'asc' ? 'ascending' : 'descending') : 'none';
  return html`<th scope="col" aria-sort="${sorted}">
    <a href="${hrefOf(key, order)}"
      >${label}${active ? (current.order === 'asc' ? ' ▲' : ' ▼') : ''}</a
    >
  </th>`;
}

/**
 * A table that scrolls sideways inside its own box on a narrow screen: a named region that takes
 * the keyboard's focus, so that it can be scrolled without a pointer.
 */
export function scrollingTable(label: string, table: HtmlValue): SafeHtml {
  return html`<div class="table" role="region" aria-label="${label}" tabindex="0">${table}</div>`;
}

/** A notice of what a form did, shown once after its redirect (`?done=`). */
export function doneNotice(done: string | undefined): SafeHtml | undefined {
  return done === undefined || done === ''
    ? undefined
    : html`<p class="notice" role="status">${done.slice(0, 300)}</p>`;
}
