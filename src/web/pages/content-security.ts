import { createHash } from 'node:crypto';
import type { HelmetOptions } from 'helmet';

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const SCRIPT_TYPES = new Set(['', 'module', 'text/javascript', 'application/javascript']);

/**
 * The CSP source expressions (`'sha256-…'`) of the inline scripts a page runs: those without
 * `src` whose type is JavaScript (a JSON data block is not run, so needs none).
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes, body] of html.matchAll(INLINE_SCRIPT)) {
    if (/\ssrc\s*=/i.test(` ${attributes}`)) continue;
    const type = /\btype\s*=\s*["']?([^"'\s>]*)/i.exec(attributes)?.[1]?.toLowerCase() ?? '';
    if (!SCRIPT_TYPES.has(type)) continue;
    hashes.add(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return [...hashes].sort();
}

/** What every page of Trove's address shares with the API's headers. */
const COMMON: HelmetOptions = {
  crossOriginEmbedderPolicy: false,
  referrerPolicy: { policy: 'no-referrer' },
  strictTransportSecurity: false,
  frameguard: { action: 'deny' },
};

/**
 * Headers for a single-page app served from Trove's own origin: its own scripts (and the
 * inline ones named by hash), styles, images (with `blob:` and `data:`, which the UI makes for
 * previews and icons), fonts, workers and manifest, and connections to its own origin, which
 * includes its WebSocket; nothing from anywhere else, and no framing.
 */
export function singlePageAppHeaders(scriptHashes: readonly string[]): HelmetOptions {
  return {
    ...COMMON,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...scriptHashes],
        // Components set inline styles (positions of menus and dialogs).
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        manifestSrc: ["'self'"],
        mediaSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
  };
}

/**
 * Headers for Trove's own pages: server-rendered HTML and one stylesheet; the console's pages may
 * also run scripts of Trove's own origin (`scripts`), never inline ones, and compile the
 * WebAssembly they fetch from it.
 */
export function pageHeaders(scripts = false): HelmetOptions {
  return {
    ...COMMON,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        // The barcode reader is WebAssembly, fetched from Trove's origin.
        ...(scripts ? { scriptSrc: ["'self'", "'wasm-unsafe-eval'"], connectSrc: ["'self'"] } : {}),
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
  };
}
