import type pg from 'pg';
import type { HttpLoadResult } from './load.js';
import type { BenchSession } from './session.js';

/**
 * The console's pages next to the API routes they show: each page is loaded as a browser would
 * (its HTML, rendered by the server from the same services), and the routes a client would call
 * for the same content, in the same run; the page keeps a share of their rate, the routes called
 * one after another.
 */

/** Least page req/s as a share of its API route's req/s: the frame (who, which group) is extra. */
export const MIN_PAGE_SHARE = 0.5;

export interface ConsolePagePair {
  name: string;
  /** The page's paths (cycled through). */
  page: string[];
  /**
   * The API routes a client calls for what the page shows, each as its paths (cycled through):
   * one for a list, several for a page that shows an entity with its loans, path and members.
   */
  api: string[][];
}

export interface ConsolePageResult {
  name: string;
  pagePath: string;
  apiPaths: string[];
  page: HttpLoadResult;
  /** Each API route's load, in the order of `apiPaths`. */
  api: HttpLoadResult[];
  /** The routes one after another: 1 / the sum of 1 / each one's req/s. */
  apiRequestsPerSecond: number;
  /** The sum of the routes' p99s. */
  apiP99: number;
  /** Page req/s / the routes' req/s one after another. */
  share: number;
  minShare: number;
  missed: string[];
}

export interface ConsoleFixtures {
  /** Items lent out (to a named borrower), some of them overdue. */
  lent: number;
  /** Items with a minimum, at or below it (half of them expiring, from 10 days ago on). */
  low: number;
}

async function send(
  baseUrl: string,
  session: BenchSession,
  method: string,
  path: string,
  body: unknown,
): Promise<void> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: session.authorization, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  }
}

/**
 * What the console's lists show, made through the API as people make it: items lent out (a
 * third of them due in the past) and items whose minimum they have reached.
 */
export async function prepareConsoleFixtures(
  pool: pg.Pool,
  baseUrl: string,
  session: BenchSession,
  itemIds: string[],
): Promise<ConsoleFixtures> {
  const half = Math.floor(itemIds.length / 2);
  const lend = itemIds.slice(0, half);
  const stock = itemIds.slice(half);
  const day = (offset: number): string =>
    new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  for (const [k, id] of lend.entries()) {
    await send(baseUrl, session, 'POST', `/api/v1/entities/${id}/checkouts`, {
      quantity: 1,
      borrower: `Borrower ${k % 17}`,
      dueOn: day(1 + (k % 10)),
      notes: '',
    });
  }
  // A check-out cannot be made due in the past: a third of them fall overdue as time would.
  await pool.query(
    `UPDATE checkouts SET due_on = current_date - 1 - (abs(hashtext(id::text)) % 10)
     WHERE group_id = $1 AND abs(hashtext(id::text)) % 3 = 0`,
    [session.groupId],
  );
  for (const [k, id] of stock.entries()) {
    await send(baseUrl, session, 'PUT', `/api/v1/entities/${id}/stock`, {
      minQuantity: 5,
      ...(k % 2 === 0 ? { expiresOn: day((k % 40) - 10) } : {}),
    });
  }
  return { lent: lend.length, low: stock.length };
}

/** The console's heaviest pages, each with the API route that answers the same question. */
export function consolePagePairs(words: { search: string }, itemIds: string[]): ConsolePagePair[] {
  return [
    {
      name: 'desk: out now',
      page: ['/console'],
      api: [['/api/v1/checkouts?status=out&sort=due&page=1&pageSize=25']],
    },
    {
      name: 'desk: overdue',
      page: ['/console?list=overdue&sort=item'],
      api: [['/api/v1/checkouts?status=overdue&sort=item&page=1&pageSize=25']],
    },
    {
      name: `desk: find ${words.search}`,
      page: [`/console?find=${words.search}`],
      api: [[`/api/v1/entities?q=${words.search}&page=1&pageSize=20`]],
    },
    {
      name: 'stock: shopping list',
      page: ['/console/stock?list=low'],
      api: [['/api/v1/stock/low']],
    },
    {
      name: 'stock: expiring',
      page: ['/console/stock?list=expiring&within=30'],
      api: [['/api/v1/stock/expiring?within=30']],
    },
    {
      name: 'history: the group',
      page: ['/console/history'],
      api: [['/api/v1/audit?page=1&pageSize=25']],
    },
    {
      name: 'history: updates',
      page: ['/console/history?kind=update'],
      api: [['/api/v1/audit?action=update&page=1&pageSize=25']],
    },
    {
      name: `bulk: choose ${words.search}`,
      page: [`/console/bulk?q=${words.search}`],
      api: [
        [`/api/v1/entities?q=${words.search}&page=1&pageSize=50`],
        ['/api/v1/entities/tree'],
        ['/api/v1/tags'],
      ],
    },
    {
      name: 'desk: an item',
      page: itemIds.map((id) => `/console/items/${id}`),
      api: [
        itemIds.map((id) => `/api/v1/entities/${id}`),
        itemIds.map((id) => `/api/v1/entities/${id}/path`),
        itemIds.map((id) => `/api/v1/entities/${id}/checkouts`),
        ['/api/v1/groups/members'],
      ],
    },
  ];
}

export function judgePage(
  pair: ConsolePagePair,
  page: HttpLoadResult,
  api: HttpLoadResult[],
): ConsolePageResult {
  const apiRequestsPerSecond = api.every((route) => route.requestsPerSecond > 0)
    ? 1 / api.reduce((sum, route) => sum + 1 / route.requestsPerSecond, 0)
    : 0;
  const share = apiRequestsPerSecond > 0 ? page.requestsPerSecond / apiRequestsPerSecond : 0;
  const apiErrors = api.reduce((sum, route) => sum + route.non2xx + route.socketErrors, 0);
  const missed: string[] = [];
  if (page.requests === 0) missed.push('no page completed');
  if (page.non2xx + page.socketErrors > 0) missed.push(`${page.non2xx + page.socketErrors} errors`);
  if (apiErrors > 0) missed.push(`${apiErrors} API errors`);
  if (share < MIN_PAGE_SHARE) missed.push(`share < ${MIN_PAGE_SHARE}`);
  return {
    name: pair.name,
    pagePath: pair.page[0],
    apiPaths: pair.api.map((paths) => paths[0]),
    page,
    api,
    apiRequestsPerSecond,
    apiP99: api.reduce((sum, route) => sum + route.p99, 0),
    share,
    minShare: MIN_PAGE_SHARE,
    missed,
  };
}

/** The pages' table: each page's rate and p99 beside its API routes' (called one after another). */
export function formatConsolePages(results: ConsolePageResult[]): string {
  const header =
    'console page'.padEnd(24) +
    '  page req/s  page p99  API req/s  API p99  routes  share  target met?';
  const rows = results.map(
    (result) =>
      result.name.padEnd(24) +
      result.page.requestsPerSecond.toFixed(1).padStart(12) +
      result.page.p99.toFixed(0).padStart(10) +
      result.apiRequestsPerSecond.toFixed(1).padStart(11) +
      result.apiP99.toFixed(0).padStart(9) +
      String(result.api.length).padStart(7) +
      result.share.toFixed(2).padStart(7) +
      '  ' +
      (result.missed.length === 0
        ? `yes (share ≥ ${result.minShare}, no errors)`
        : `NO: ${result.missed.join(', ')}`),
  );
  return [header, '-'.repeat(header.length + 20), ...rows].join('\n');
}
