import { PAGE_PATHS } from '../pages/page-paths.js';
import type { TextEdit } from './file-copies.js';

/**
 * The link to Trove's console added to the web UI's entry page: outside the element the app
 * mounts in, so the app leaves it alone, fixed at the bottom right of every screen of the app.
 * Its looks are inline because the app's policy allows inline styles and no stylesheet of
 * Trove's is loaded there.
 */
export const CONSOLE_LINK =
  `<a id="trove-console-link" href="${PAGE_PATHS.console}" ` +
  'style="position:fixed;right:12px;bottom:12px;z-index:2147483000;padding:6px 12px;' +
  'border-radius:999px;background:#1d3557;color:#fff;font:600 14px/1.3 system-ui,sans-serif;' +
  'text-decoration:none;box-shadow:0 1px 4px rgba(0,0,0,.35)">Trove console</a>';

/** Adds the console's link before the entry page's closing `</body>` (or at its end). */
export const consoleLinkEdit: TextEdit = {
  name: 'console-link',
  apply(page: string): string {
    const end = page.lastIndexOf('</body>');
    return end === -1
      ? `${page}${CONSOLE_LINK}`
      : `${page.slice(0, end)}${CONSOLE_LINK}${page.slice(end)}`;
  },
};
