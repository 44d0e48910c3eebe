import { SIGNED_IN_PAGE } from '../../platform/http/local-target.js';

/**
 * Where Trove's own pages live, outside `/api`: the sign-in, registration and signed-in pages, the
 * form posts that sign in and out, their stylesheet, and the console. Each is a Nest route like any
 * other (`@Page()`), kept out of the API's prefix and version.
 */
export const PAGE_PATHS = {
  signIn: '/',
  home: SIGNED_IN_PAGE,
  register: '/register',
  signInForm: '/sign-in',
  signOutForm: '/sign-out',
  stylesheet: '/trove-pages.css',
  console: '/console',
} as const;

/**
 * The pages Trove serves whatever serves the rest of its address: with Homebox's web UI in
 * `TROVE_WEB_UI_DIR`, `/`, `/home` and `/register` are the UI's, and these stay Trove's.
 */
const ALWAYS_TROVE = [PAGE_PATHS.signInForm, PAGE_PATHS.signOutForm, PAGE_PATHS.stylesheet];

const underConsole = (path: string): boolean =>
  path === PAGE_PATHS.console || path.startsWith(`${PAGE_PATHS.console}/`);

/** Whether Trove answers this path with a page of its own even beside a web UI directory. */
export function isAlwaysTrovePage(path: string): boolean {
  return ALWAYS_TROVE.includes(path as (typeof ALWAYS_TROVE)[number]) || underConsole(path);
}

/** Whether this path is one of Trove's pages (which take the pages' headers). */
export function isPagePath(path: string): boolean {
  return (
    isAlwaysTrovePage(path) ||
    path === PAGE_PATHS.signIn ||
    path === PAGE_PATHS.home ||
    path === PAGE_PATHS.register
  );
}

/** The global prefix's exclusions: the pages are served at their own paths, not under `/api`. */
export const PAGE_ROUTE_EXCLUSIONS: string[] = [
  PAGE_PATHS.signIn,
  PAGE_PATHS.home,
  PAGE_PATHS.register,
  PAGE_PATHS.signInForm,
  PAGE_PATHS.signOutForm,
  PAGE_PATHS.stylesheet,
  PAGE_PATHS.console,
  `${PAGE_PATHS.console}/{*path}`,
];
