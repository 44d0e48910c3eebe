import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONSOLE_SCRIPT } from '../../src/web/console/console-script.js';
import { useTestApp } from '../support/api.js';
import { signUp } from '../support/factories.js';
import { getPage } from './console-helpers.js';

const require = createRequire(import.meta.url);
const ponyfill = require.resolve('barcode-detector/ponyfill');

describe('the console’s assets (/console/assets)', () => {
  const app = useTestApp();

  it('serves the console’s script to anyone, from Trove’s origin', async () => {
    const response = await app.trove.http.get('/console/assets/console.js').expect(200);
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
    expect(response.text).toBe(CONSOLE_SCRIPT);
    expect(CONSOLE_SCRIPT).toContain('"/console/assets/"');
  });

  it('serves the barcode detector and its reader, as the package ships them', async () => {
    const script = await app.trove.http.get('/console/assets/barcode-detector.js').expect(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=86400');
    const shipped = path.join(path.dirname(path.dirname(ponyfill)), 'iife', 'ponyfill.js');
    expect(script.text).toBe(await readFile(shipped, 'utf8'));
    expect(script.text).toContain('prepareZXingModule');

    const reader = await app.trove.http
      .get('/console/assets/zxing_reader.wasm')
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(reader.headers['content-type']).toBe('application/wasm');
    const wasm = createRequire(ponyfill).resolve('zxing-wasm/reader/zxing_reader.wasm');
    expect(Buffer.compare(reader.body as Buffer, await readFile(wasm))).toBe(0);
    expect((reader.body as Buffer).subarray(0, 4).toString('latin1')).toBe('\0asm');
  });

  it('lets console pages run only Trove’s scripts, compile WebAssembly and fetch from Trove', async () => {
    const owner = await signUp(app.trove, { name: 'Ada' });
    const desk = await getPage(app.trove, owner, '/console').expect(200);
    expect(desk.headers['content-security-policy']).toBe(
      "default-src 'none';script-src 'self' 'wasm-unsafe-eval';connect-src 'self';" +
        "style-src 'self';img-src 'self' data:;base-uri 'none';form-action 'self';" +
        "frame-ancestors 'none'",
    );
    const signIn = await app.trove.http.get('/sign-in').expect(200);
    expect(signIn.headers['content-security-policy']).toBe(
      "default-src 'none';style-src 'self';img-src 'self' data:;base-uri 'none';" +
        "form-action 'self';frame-ancestors 'none'",
    );
  });
});
