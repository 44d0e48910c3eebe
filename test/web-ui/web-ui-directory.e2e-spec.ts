import { request as httpRequest } from 'node:http';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/platform/config/configuration.js';
import { ConfigurationError } from '../../src/platform/config/env.js';
import { CONSOLE_LINK, consoleLinkEdit } from '../../src/web/web-ui/console-link.js';
import { getPage } from '../console/console-helpers.js';
import { createEntity } from '../support/api.js';
import { signUp } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import {
  STAND_IN_APP_SCRIPT,
  STAND_IN_INDEX,
  STAND_IN_STYLES,
  writeStandInWebUi,
  type StandInWebUi,
} from '../support/stand-in-web-ui.js';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET with the path sent exactly as written (no client-side normalisation of `..`). */
function rawGet(baseUrl: string, rawPath: string, headers: Record<string, string> = {}) {
  const { hostname, port } = new URL(baseUrl);
  return new Promise<RawResponse>((resolve, reject) => {
    const request = httpRequest({ hostname, port, path: rawPath, method: 'GET', headers });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
        }),
      );
    });
    request.on('error', reject);
    request.end();
  });
}

const API_CSP =
  "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';" +
  "frame-ancestors 'none';img-src 'self' data: blob:;object-src 'none';script-src 'self';" +
  "script-src-attr 'none';style-src 'self' 'unsafe-inline';connect-src 'self'";
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The stand-in's entry page as served: with the console's link before `</body>`. */
const SERVED_INDEX = STAND_IN_INDEX.replace('</body>', `${CONSOLE_LINK}</body>`);

describe('the web UI directory (TROVE_WEB_UI_DIR)', () => {
  let ui: StandInWebUi;
  let trove: TestApp;

  beforeAll(async () => {
    ui = await writeStandInWebUi();
    trove = await createTestApp({ TROVE_WEB_UI_DIR: ui.dir });
  });
  afterAll(async () => {
    await trove?.close();
    await ui?.remove();
  });

  const appCsp = (): string =>
    `default-src 'self';script-src 'self' ${ui.inlineScriptHash};style-src 'self' 'unsafe-inline';` +
    "img-src 'self' data: blob:;font-src 'self' data:;connect-src 'self';worker-src 'self' blob:;" +
    "manifest-src 'self';media-src 'self' blob:;object-src 'none';base-uri 'self';" +
    "form-action 'self';frame-ancestors 'none'";

  describe('the console', () => {
    it('serves the console beside the web UI, each entity linked to its page in the web UI', async () => {
      const owner = await signUp(trove, { name: 'Ada' });
      const drill = await createEntity(trove, owner, { name: 'Cordless drill' });
      const page = await getPage(trove, owner, `/console?find=${drill.assetId}`).expect(303);
      expect(page.headers.location).toBe(`/console/items/${drill.id}`);
      const item = await getPage(trove, owner, `/console/items/${drill.id}`).expect(200);
      expect(item.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(item.text).toContain(`<a href="/item/${drill.id}">Open it in the web UI</a>`);
      expect(item.text).toContain('<li><a href="/">Web UI</a></li>');
      await createEntity(trove, owner, { name: 'Cordless screwdriver' });
      const desk = await getPage(trove, owner, '/console?find=Cordless').expect(200);
      expect(desk.text).toContain('<title>Check-out desk · Trove console</title>');
      expect(desk.text).toContain(`<a class="muted" href="/item/${drill.id}"`);
    });
  });

  describe('files', () => {
    it('serves index.html at / with the app’s headers, revalidated on every load', async () => {
      const response = await trove.http.get('/').expect(200);
      expect(response.text).toBe(SERVED_INDEX);
      expect(response.headers).toMatchObject({
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-cache',
        'content-security-policy': appCsp(),
        'x-frame-options': 'DENY',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cross-origin-opener-policy': 'same-origin',
        'accept-ranges': 'bytes',
        etag: expect.stringMatching(/^W\/"[0-9a-f]+-[0-9a-f]+"$/),
        'last-modified': expect.any(String),
      });
    });

    it('caches content-hashed assets for a year as immutable, with their content type', async () => {
      const response = await trove.http
        .get('/_nuxt/app.abc123.js')
        .set('Accept-Encoding', 'identity')
        .expect(200);
      expect(response.text).toBe(STAND_IN_APP_SCRIPT);
      expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(response.headers['cache-control']).toBe(IMMUTABLE);
      expect(response.headers['content-encoding']).toBeUndefined();
    });

    it('revalidates what names the build, the service worker, workbox and the manifest', async () => {
      const expected: [string, string][] = [
        ['/_nuxt/builds/latest.json', 'application/json; charset=utf-8'],
        ['/_nuxt/builds/meta/build-1.json', 'application/json; charset=utf-8'],
        ['/sw.js', 'text/javascript; charset=utf-8'],
        ['/workbox-1a2b3c.js', 'text/javascript; charset=utf-8'],
        ['/manifest.webmanifest', 'application/manifest+json; charset=utf-8'],
        ['/200.html', 'text/html; charset=utf-8'],
      ];
      for (const [url, type] of expected) {
        const response = await trove.http.get(url).expect(200);
        expect([url, response.headers['cache-control'], response.headers['content-type']]).toEqual([
          url,
          'no-cache',
          type,
        ]);
      }
    });

    it('sends the precompressed .br or .gz sibling the client accepts, else the file itself', async () => {
      const brotli = await rawGet(trove.baseUrl, '/_nuxt/entry.abc123.css', {
        'accept-encoding': 'gzip, deflate, br',
      });
      expect(brotli.status).toBe(200);
      expect(brotli.headers).toMatchObject({
        'content-encoding': 'br',
        'content-type': 'text/css; charset=utf-8',
        vary: 'Accept-Encoding',
        'cache-control': IMMUTABLE,
      });
      expect(brotliDecompressSync(brotli.body).toString()).toBe(STAND_IN_STYLES);

      const gzip = await rawGet(trove.baseUrl, '/_nuxt/entry.abc123.css', {
        'accept-encoding': 'gzip',
      });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.body).toString()).toBe(STAND_IN_STYLES);

      const plain = await rawGet(trove.baseUrl, '/_nuxt/entry.abc123.css');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBe('Accept-Encoding');
      expect(plain.body.toString()).toBe(STAND_IN_STYLES);
      expect(new Set([brotli.headers.etag, gzip.headers.etag, plain.headers.etag]).size).toBe(3);
    });

    it('compresses a compressible file without a sibling on its first request, again when it changes', async () => {
      const script = 'console.log("inventory");\n'.repeat(200);
      await writeFile(path.join(ui.dir, '_nuxt/lazy.def456.js'), script);
      const brotli = await rawGet(trove.baseUrl, '/_nuxt/lazy.def456.js', {
        'accept-encoding': 'gzip, br',
      });
      expect(brotli.status).toBe(200);
      expect(brotli.headers).toMatchObject({
        'content-encoding': 'br',
        'content-type': 'text/javascript; charset=utf-8',
        vary: 'Accept-Encoding',
        'cache-control': IMMUTABLE,
      });
      expect(brotli.body.length).toBeLessThan(script.length / 10);
      expect(brotliDecompressSync(brotli.body).toString()).toBe(script);
      const unchanged = await rawGet(trove.baseUrl, '/_nuxt/lazy.def456.js', {
        'accept-encoding': 'br',
        'if-none-match': String(brotli.headers.etag),
      });
      expect(unchanged.status).toBe(304);

      const gzip = await rawGet(trove.baseUrl, '/_nuxt/lazy.def456.js', {
        'accept-encoding': 'gzip',
      });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.body).toString()).toBe(script);
      const plain = await rawGet(trove.baseUrl, '/_nuxt/lazy.def456.js');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBe('Accept-Encoding');
      expect(plain.body.toString()).toBe(script);
      expect(new Set([brotli.headers.etag, gzip.headers.etag, plain.headers.etag]).size).toBe(3);

      // A file changed in place (same name) is compressed again.
      const changed = 'console.log("changed");\n'.repeat(300);
      await writeFile(path.join(ui.dir, '_nuxt/lazy.def456.js'), changed);
      const again = await rawGet(trove.baseUrl, '/_nuxt/lazy.def456.js', {
        'accept-encoding': 'br',
      });
      expect(brotliDecompressSync(again.body).toString()).toBe(changed);
      expect(again.headers.etag).not.toBe(brotli.headers.etag);
    });

    it('sends small files and types that do not compress as they are', async () => {
      const image = Buffer.alloc(4096, 7);
      await writeFile(path.join(ui.dir, 'icon.png'), image);
      const png = await rawGet(trove.baseUrl, '/icon.png', { 'accept-encoding': 'gzip, br' });
      expect(png.headers).toMatchObject({ 'content-type': 'image/png' });
      expect(png.headers['content-encoding']).toBeUndefined();
      expect(png.headers.vary).toBeUndefined();
      expect(png.body.equals(image)).toBe(true);
      const small = await rawGet(trove.baseUrl, '/manifest.webmanifest', {
        'accept-encoding': 'gzip, br',
      });
      expect(small.headers['content-encoding']).toBeUndefined();
      expect(small.body.toString()).toBe('{"name":"Stand-in"}');
    });

    it('answers 304 to If-None-Match with the ETag, and ranges with 206', async () => {
      const first = await trove.http.get('/_nuxt/app.abc123.js').expect(200);
      const again = await trove.http
        .get('/_nuxt/app.abc123.js')
        .set('If-None-Match', first.headers.etag)
        .expect(304);
      expect(again.text).toBe('');

      const range = await rawGet(trove.baseUrl, '/_nuxt/app.abc123.js', { range: 'bytes=1-20' });
      expect(range.status).toBe(206);
      expect(range.headers['content-range']).toBe(
        `bytes 1-20/${Buffer.byteLength(STAND_IN_APP_SCRIPT)}`,
      );
      expect(range.body.toString()).toBe(STAND_IN_APP_SCRIPT.slice(1, 21));

      const unsatisfiable = await rawGet(trove.baseUrl, '/_nuxt/app.abc123.js', {
        range: 'bytes=999999-',
      });
      expect(unsatisfiable.status).toBe(416);
    });

    it('answers HEAD with the headers of GET and no body', async () => {
      const response = await trove.http.head('/_nuxt/app.abc123.js').expect(200);
      expect(response.headers['content-length']).toBe(
        String(Buffer.byteLength(STAND_IN_APP_SCRIPT)),
      );
      expect(response.text).toBeUndefined();
    });
  });

  describe('the app’s own routes', () => {
    it('answers index.html for any GET that names no file (deep links), revalidated', async () => {
      for (const url of ['/home', '/item/0b4f7c36-0000-4000-8000-000000000000', '/locations?x=1']) {
        const response = await trove.http.get(url).expect(200);
        expect([url, response.text, response.headers['cache-control']]).toEqual([
          url,
          SERVED_INDEX,
          'no-cache',
        ]);
        expect(response.headers['content-security-policy']).toBe(appCsp());
      }
    });

    it('lists no directory and serves no dotfile: both are the app’s routes', async () => {
      for (const url of ['/_nuxt/', '/_nuxt', '/notes/', '/.env', '/notes/.hidden']) {
        const response = await rawGet(trove.baseUrl, url);
        expect([url, response.status, response.body.toString()]).toEqual([url, 200, SERVED_INDEX]);
      }
    });

    it('serves a symbolic link that stays inside the directory', async () => {
      const response = await trove.http.get('/inside-link.txt').expect(200);
      expect(response.text).toBe('inside');
    });
  });

  describe('no way out of the directory', () => {
    const attempts = [
      '/../secret.txt',
      '/_nuxt/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/%2E%2E%2Fsecret.txt',
      '/..%2fsecret.txt',
      '/..%5csecret.txt',
      '/..\\secret.txt',
      '/%252e%252e%252fsecret.txt',
      '/%252e%252e/secret.txt',
      '/%c0%ae%c0%ae/secret.txt',
      '/notes/%00',
      '/%',
    ];

    it.each(attempts)('refuses %s with 400, reading nothing', async (attempt) => {
      const response = await rawGet(trove.baseUrl, attempt);
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body.toString())).toEqual({ error: 'malformed path' });
    });

    it('does not follow a symbolic link to a file or directory outside (404)', async () => {
      for (const url of ['/escape.txt', '/linked/file.txt', '/linked/']) {
        const response = await rawGet(trove.baseUrl, url);
        expect([url, response.status, response.body.toString()]).toEqual([
          url,
          404,
          '{"error":"not found"}',
        ]);
      }
    });
  });

  describe('the API and Swagger keep their answers and headers', () => {
    it('answers the API as before, with its strict headers', async () => {
      const status = await trove.http.get('/api/v1/status').expect(200);
      expect(status.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(status.headers['content-security-policy']).toBe(API_CSP);
      expect(status.headers['cache-control']).toBeUndefined();

      const unknown = await trove.http.get('/api/v1/no-such-thing').expect(404);
      expect(unknown.body).toEqual({ error: 'Cannot GET /api/v1/no-such-thing' });
      expect(unknown.headers['content-security-policy']).toBe(API_CSP);
      const bare = await trove.http.get('/api').expect(404);
      expect(bare.body).toEqual({ error: 'Cannot GET /api' });
    });

    it('serves Swagger UI and the OpenAPI document', async () => {
      const page = await trove.http.get('/swagger').expect(200);
      expect(page.text).toContain('swagger-ui');
      expect(page.headers['content-security-policy']).toBe(API_CSP);
      const document = await trove.http.get('/swagger/openapi.json').expect(200);
      expect(document.body.openapi).toMatch(/^3\./);
      await trove.http.get('/swaggerish').expect(404);
    });

    it('leaves SCIM provisioning (/scim/v2) to its own routes: off, a JSON 404', async () => {
      const response = await trove.http.get('/scim/v2/Users').expect(404);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['content-security-policy']).toBe(API_CSP);
    });

    it('leaves other methods outside the API unanswered, as before (404)', async () => {
      const response = await trove.http.post('/home').send({}).expect(404);
      expect(response.text).toContain('Cannot POST /home');
    });
  });
});

describe('the console’s link in the web UI (TROVE_WEB_UI_CONSOLE_LINK)', () => {
  /** An entry page large enough to be compressed, with a stale precompressed sibling. */
  const PAGE = `<!doctype html><html><head><title>App</title></head><body><div id="__nuxt"></div>${'<!-- padding -->'.repeat(100)}</body></html>`;
  let ui: StandInWebUi;
  let withLink: TestApp;
  let withoutLink: TestApp;

  beforeAll(async () => {
    ui = await writeStandInWebUi();
    await writeFile(path.join(ui.dir, 'index.html'), PAGE);
    await writeFile(path.join(ui.dir, 'index.html.br'), brotliCompressSync(PAGE));
    withLink = await createTestApp({ TROVE_WEB_UI_DIR: ui.dir });
    withoutLink = await createTestApp({
      TROVE_WEB_UI_DIR: ui.dir,
      TROVE_WEB_UI_CONSOLE_LINK: 'false',
    });
  });
  afterAll(async () => {
    await withLink?.close();
    await withoutLink?.close();
    await ui?.remove();
  });

  it('adds the link before </body> of every entry page as served, leaving the files as they are', async () => {
    const linked = PAGE.replace('</body>', `${CONSOLE_LINK}</body>`);
    for (const url of ['/', '/index.html', '/item/0b4f7c36-0000-4000-8000-000000000000']) {
      const response = await rawGet(withLink.baseUrl, url);
      expect([url, response.status, response.body.toString()]).toEqual([url, 200, linked]);
    }
    const other = await rawGet(withLink.baseUrl, '/200.html');
    expect(other.body.toString()).toBe(consoleLinkEdit.apply(STAND_IN_INDEX));
    expect(await readFile(path.join(ui.dir, 'index.html'), 'utf8')).toBe(PAGE);
    expect(CONSOLE_LINK).toContain('href="/console"');
  });

  it('compresses the page as served, never sending the sibling made of the file without it', async () => {
    const linked = PAGE.replace('</body>', `${CONSOLE_LINK}</body>`);
    const brotli = await rawGet(withLink.baseUrl, '/home', { 'accept-encoding': 'br' });
    expect(brotli.headers).toMatchObject({ 'content-encoding': 'br', vary: 'Accept-Encoding' });
    expect(brotliDecompressSync(brotli.body).toString()).toBe(linked);
    const gzip = await rawGet(withLink.baseUrl, '/home', { 'accept-encoding': 'gzip' });
    expect(gunzipSync(gzip.body).toString()).toBe(linked);
    const unchanged = await rawGet(withLink.baseUrl, '/home', {
      'accept-encoding': 'br',
      'if-none-match': String(brotli.headers.etag),
    });
    expect(unchanged.status).toBe(304);
  });

  it('serves a new build’s entry page with the link as soon as it is written', async () => {
    const before = await rawGet(withLink.baseUrl, '/');
    const next = PAGE.replace('<title>App</title>', '<title>App 2</title>');
    await writeFile(path.join(ui.dir, 'index.html'), next);
    try {
      const after = await rawGet(withLink.baseUrl, '/');
      expect(after.body.toString()).toBe(next.replace('</body>', `${CONSOLE_LINK}</body>`));
      expect(after.headers.etag).not.toBe(before.headers.etag);
    } finally {
      await writeFile(path.join(ui.dir, 'index.html'), PAGE);
    }
  });

  it('serves the entry page unchanged, sibling included, when switched off', async () => {
    const plain = await rawGet(withoutLink.baseUrl, '/home');
    expect(plain.body.toString()).toBe(PAGE);
    const brotli = await rawGet(withoutLink.baseUrl, '/home', { 'accept-encoding': 'br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.body).toString()).toBe(PAGE);
  });
});

describe('a TROVE_WEB_UI_DIR that cannot be served', () => {
  let base: string;

  beforeAll(async () => {
    base = await mkdtemp(path.join(os.tmpdir(), 'trove-web-ui-bad-'));
    await writeFile(path.join(base, 'a-file.txt'), 'not a directory');
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  const problemsOf = (dir: string): string[] => {
    try {
      loadConfig({ TROVE_WEB_UI_DIR: dir });
    } catch (error) {
      if (error instanceof ConfigurationError) return error.problems;
      throw error;
    }
    return [];
  };

  it('stops start-up naming the variable when the directory is missing', () => {
    const missing = path.join(base, 'nowhere');
    expect(problemsOf(missing)).toEqual([`TROVE_WEB_UI_DIR: no such directory (got "${missing}")`]);
  });

  it('stops start-up when it names a file, or a directory without index.html', () => {
    const file = path.join(base, 'a-file.txt');
    expect(problemsOf(file)).toEqual([`TROVE_WEB_UI_DIR: not a directory (got "${file}")`]);
    expect(problemsOf(base)).toEqual([
      'TROVE_WEB_UI_DIR: holds no index.html: name the built app, such as ./web-ui from ' +
        `npm run web-ui (got "${base}")`,
    ]);
  });

  it('refuses to create the app', async () => {
    await expect(createTestApp({ TROVE_WEB_UI_DIR: base })).rejects.toThrow(
      /TROVE_WEB_UI_DIR: holds no index\.html/,
    );
  });
});
