import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createEntity } from '../support/api.js';
import { signUp } from '../support/factories.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { startTroveProcess, type TroveProcess } from '../support/trove-process.js';
import { listeningPorts } from './listening-ports.js';

const LOADED_MODULES = path.join(import.meta.dirname, '../support/loaded-modules.mjs');

describe('telemetry off (the default)', () => {
  let database: TestDatabase;
  let trove: TroveProcess;
  let listDir: string;
  let listFile: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    listDir = await mkdtemp(path.join(os.tmpdir(), 'trove-modules-'));
    listFile = path.join(listDir, 'modules.json');
    trove = await startTroveProcess({
      // Every module the process loads is listed when it exits: ES modules as they resolve,
      // CommonJS ones from require's cache.
      nodeOptions: ['--import', LOADED_MODULES],
      env: { DATABASE_URL: database.url, TROVE_LOADED_MODULES_FILE: listFile },
    });
  });

  afterAll(async () => {
    await trove?.dispose();
    await database?.drop();
    if (listDir) await rm(listDir, { recursive: true, force: true });
  });

  it('loads no OpenTelemetry module, listens only on the web port, and logs no trace ids', async () => {
    const app = { http: supertest(trove.baseUrl) };
    const owner = await signUp(app);
    const entity = await createEntity(app, owner, 'Lamp');
    await as(app, owner, 'put', `/api/v1/entities/${entity.id}`)
      .set('traceparent', '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01')
      .send({ name: 'Desk lamp' })
      .expect(200);
    await as(app, owner, 'get', '/api/v1/entities').expect(200);

    expect(await listeningPorts(trove.child.pid!)).toEqual([Number(new URL(trove.baseUrl).port)]);
    expect(trove.logs.some((line) => 'trace_id' in line)).toBe(false);

    trove.signal('SIGTERM');
    expect((await trove.exited).code).toBe(0);
    const loaded = JSON.parse(await readFile(listFile, 'utf8')) as string[];
    // The list is complete enough to see what the app loads, ESM and CommonJS alike...
    expect(loaded.some((entry) => entry.endsWith('/src/trove.ts'))).toBe(true);
    expect(loaded.some((entry) => entry.includes('/node_modules/pg/lib/'))).toBe(true);
    expect(loaded.some((entry) => entry.includes('/node_modules/express/'))).toBe(true);
    // ...and holds no OpenTelemetry module, nor Trove's bootstrap of it.
    expect(loaded.filter((entry) => entry.includes('@opentelemetry'))).toEqual([]);
    expect(loaded.filter((entry) => entry.includes('open-telemetry'))).toEqual([]);
  });
});
