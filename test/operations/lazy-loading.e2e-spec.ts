import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../support/factories.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { startTroveProcess, type TroveProcess } from '../support/trove-process.js';

const PRELOAD = path.resolve(import.meta.dirname, '..', 'support', 'loaded-modules.mjs');

/** Libraries a Trove with the defaults must not load until a request needs them. */
const OPTIONAL_PACKAGES = [
  '@aws-sdk/client-s3',
  'passport-openidconnect',
  'openid-client',
  'nodemailer',
  'sharp',
  'qrcode',
  'csv-parse',
  'csv-stringify',
  'yazl',
  'yauzl',
  'file-type',
  'scimmy',
];

/** Trove's own modules that stand for an optional part. */
const OPTIONAL_SOURCES = [
  'platform/storage/s3.storage',
  'identity/oidc/oidc.strategy',
  'openapi-document',
];

const slashed = (file: string): string => file.split(path.sep).join('/');

const hasPackage = (files: string[], name: string): boolean =>
  files.some((file) => slashed(file).includes(`/node_modules/${name}/`));

const hasSource = (files: string[], name: string): boolean =>
  files.some((file) => new RegExp(`/src/${name}\\.(ts|js)$`).test(slashed(file)));

describe('optional parts of Trove load on first use', () => {
  let database: TestDatabase;
  let directory: string;
  let reportFile: string;
  let trove: TroveProcess;
  let http: ReturnType<typeof supertest>;
  let authorization: string;

  /** The modules the process has loaded so far, as it reports them on SIGUSR2. */
  const loaded = async (): Promise<string[]> => {
    await rm(reportFile, { force: true });
    trove.child.kill('SIGUSR2');
    for (let waited = 0; waited < 20_000; waited += 50) {
      const text = await readFile(reportFile, 'utf8').catch(() => undefined);
      if (text !== undefined) return JSON.parse(text) as string[];
      await sleep(50);
    }
    throw new Error('the process did not report its modules');
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    directory = await mkdtemp(path.join(os.tmpdir(), 'trove-modules-'));
    reportFile = path.join(directory, 'modules.json');
    trove = await startTroveProcess({
      env: { DATABASE_URL: database.url, TROVE_LOADED_MODULES_FILE: reportFile },
      nodeOptions: ['--import', PRELOAD],
    });
    http = supertest(trove.baseUrl);
  }, 240_000);

  afterAll(async () => {
    await trove?.dispose();
    await database?.drop();
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it('has not loaded them after start-up and ordinary requests', async () => {
    await http.get('/api/v1/status').expect(200);
    const owner = await signUp({ http });
    authorization = owner.authorization;
    await http.get('/api/v1/entities').set('Authorization', authorization).expect(200);

    const files = await loaded();
    // The report sees what every process loads: Nest, Express, pg and Trove's own modules.
    for (const name of ['@nestjs/core', '@nestjs/swagger', 'express', 'pg']) {
      expect(hasPackage(files, name), name).toBe(true);
    }
    for (const name of ['main', 'app.factory', 'inventory/entities/core/entities.service']) {
      expect(hasSource(files, name), name).toBe(true);
    }
    expect(OPTIONAL_PACKAGES.filter((name) => hasPackage(files, name))).toEqual([]);
    expect(OPTIONAL_SOURCES.filter((name) => hasSource(files, name))).toEqual([]);
  });

  it('loads the image library and the QR encoder with the first QR code', async () => {
    const response = await http
      .get('/api/v1/qrcode?data=hello')
      .set('Authorization', authorization)
      .expect(200);
    expect(response.headers['content-type']).toBe('image/png');

    const files = await loaded();
    expect(hasPackage(files, 'sharp')).toBe(true);
    expect(hasPackage(files, 'qrcode')).toBe(true);
    expect(hasPackage(files, 'nodemailer')).toBe(false);
  });

  it('builds the OpenAPI document with the first request for it', async () => {
    const response = await http.get('/swagger/openapi.json').expect(200);
    expect((response.body as { info: { title: string } }).info.title).toBe('Trove');

    expect(hasSource(await loaded(), 'openapi-document')).toBe(true);
  });
});
