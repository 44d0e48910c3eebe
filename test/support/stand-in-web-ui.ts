import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';

/** The inline script of the stand-in's entry page (its CSP hash must be allowed). */
export const STAND_IN_INLINE_SCRIPT = 'window.__STAND_IN__={config:{baseURL:"/"}}';

/**
 * The stand-in's application script: it shows where it was opened, calls the API's status from
 * its own origin, shows a `blob:` and a `data:` image, and records every Content-Security-Policy
 * violation in `window.violations`. `?probe=outside` also tries a request to another origin,
 * which the policy must refuse.
 */
export const STAND_IN_APP_SCRIPT = `
window.violations = [];
document.addEventListener('securitypolicyviolation', (event) => {
  window.violations.push(event.violatedDirective + ' ' + event.blockedURI);
});
const out = document.getElementById('app');
out.dataset.path = location.pathname;
out.dataset.inline = String(Boolean(window.__STAND_IN__));
const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));
const blobImage = new Image();
blobImage.src = URL.createObjectURL(new Blob([png], { type: 'image/png' }));
blobImage.onload = () => { out.dataset.blobImage = 'loaded'; };
document.body.append(blobImage);
const dataImage = new Image();
dataImage.src = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
dataImage.onload = () => { out.dataset.dataImage = 'loaded'; };
document.body.append(dataImage);
fetch('/api/v1/status')
  .then((response) => response.json())
  .then((status) => { out.dataset.status = status.health ? 'healthy' : 'unhealthy'; out.textContent = 'status ' + JSON.stringify(status.health); })
  .catch((error) => { out.dataset.status = 'failed: ' + error; });
if (new URLSearchParams(location.search).get('probe') === 'outside') {
  fetch('http://127.0.0.1:9/elsewhere').catch(() => { out.dataset.outside = 'refused'; });
}
`;

export const STAND_IN_INDEX = `<!doctype html><html><head><meta charset="utf-8"><title>Stand-in</title>
<link rel="stylesheet" href="/_nuxt/entry.abc123.css">
<script type="module" src="/_nuxt/app.abc123.js"></script></head>
<body><div id="app">loading</div><script>${STAND_IN_INLINE_SCRIPT}</script>
<script type="application/json" id="data">{"not":"run"}</script></body></html>
`;

/** Text of the asset whose precompressed siblings the tests compare. */
export const STAND_IN_STYLES = `body { font-family: sans-serif; }\n${'.rule { color: #333; }\n'.repeat(200)}`;

export interface StandInWebUi {
  /** The directory holding the app (for TROVE_WEB_UI_DIR). */
  dir: string;
  /** A file beside the app (outside it), which nothing may serve. */
  secret: string;
  /** The CSP source of the entry page's inline script. */
  inlineScriptHash: string;
  remove(): Promise<void>;
}

/**
 * Writes a small single-page app shaped like Nuxt's output into a temporary directory: entry
 * pages, hashed assets (one with `.br` and `.gz` siblings), what names the build, a service
 * worker, a manifest, a dotfile, and symbolic links that lead out of it.
 */
export async function writeStandInWebUi(): Promise<StandInWebUi> {
  const base = await mkdtemp(path.join(os.tmpdir(), 'trove-web-ui-'));
  const dir = path.join(base, 'public');
  const write = async (name: string, content: string | Buffer): Promise<void> => {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), content);
  };
  await write('index.html', STAND_IN_INDEX);
  await write('200.html', STAND_IN_INDEX);
  await write('_nuxt/app.abc123.js', STAND_IN_APP_SCRIPT);
  await write('_nuxt/entry.abc123.css', STAND_IN_STYLES);
  await write('_nuxt/entry.abc123.css.br', brotliCompressSync(STAND_IN_STYLES));
  await write('_nuxt/entry.abc123.css.gz', gzipSync(STAND_IN_STYLES));
  await write('_nuxt/builds/latest.json', '{"id":"build-1"}');
  await write('_nuxt/builds/meta/build-1.json', '{"id":"build-1"}');
  await write('sw.js', 'self.addEventListener("install", () => {});');
  await write('workbox-1a2b3c.js', '// workbox');
  await write('manifest.webmanifest', '{"name":"Stand-in"}');
  await write('.env', 'SECRET=hidden');
  await write('notes/readme.txt', 'inside');
  const secret = path.join(base, 'secret.txt');
  await writeFile(secret, 'TOP SECRET');
  await mkdir(path.join(base, 'outside'));
  await writeFile(path.join(base, 'outside', 'file.txt'), 'TOP SECRET TOO');
  await symlink(secret, path.join(dir, 'escape.txt'));
  await symlink(path.join(base, 'outside'), path.join(dir, 'linked'));
  await symlink(path.join(dir, 'notes', 'readme.txt'), path.join(dir, 'inside-link.txt'));
  return {
    dir,
    secret,
    inlineScriptHash: `'sha256-${createHash('sha256').update(STAND_IN_INLINE_SCRIPT).digest('base64')}'`,
    remove: () => rm(base, { recursive: true, force: true }),
  };
}
