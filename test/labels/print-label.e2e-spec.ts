import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import {
  createEntity,
  expectQrCodeOf,
  pngSize,
  seededLocationId,
  type CreatedEntity,
} from './label-helpers.js';

/**
 * A "printer" that records its arguments (one JSON line a call), then fails when a `fail` or
 * `kill` file exists in its directory, else copies the label to `printed.png`.
 */
const RECORDER = `
import { appendFileSync, copyFileSync, existsSync } from 'node:fs';
import path from 'node:path';
const directory = path.dirname(new URL(import.meta.url).pathname);
const args = process.argv.slice(2);
appendFileSync(path.join(directory, 'calls.jsonl'), JSON.stringify(args) + '\\n');
if (existsSync(path.join(directory, 'kill'))) process.kill(process.pid, 'SIGKILL');
if (existsSync(path.join(directory, 'fail'))) process.exit(3);
copyFileSync(args[0], path.join(directory, 'printed.png'));
`;

describe('GET /api/v1/labelmaker/...?print=true', () => {
  let trove: TestApp;
  let owner: Session;
  let viewer: Session;
  let stranger: Session;
  let printer: string;
  let drill: CreatedEntity;

  beforeAll(async () => {
    printer = await mkdtemp(path.join(os.tmpdir(), 'trove-printer-'));
    await writeFile(path.join(printer, 'record.mjs'), RECORDER);
    const command =
      `'${process.execPath}' '${printer}/record.mjs' {{.FileName}} ` +
      `'; touch ${printer}/pwned' $(touch ${printer}/pwned-too) | id`;
    trove = await createTestApp({
      TROVE_LABEL_MAKER_PRINT_COMMAND: command,
      TROVE_LABEL_MAKER_WIDTH: '600',
      TROVE_LABEL_MAKER_HEIGHT: '240',
      TROVE_LABEL_MAKER_ADDITIONAL_INFORMATION: 'Property of ACME',
      TROVE_OPTIONS_HOSTNAME: 'labels.example.com',
    });
    owner = await signUp(trove);
    viewer = await signUpMember(trove, owner, 'viewer');
    stranger = await signUp(trove);
    drill = await createEntity(trove, owner, {
      name: 'Cordless drill',
      parentId: await seededLocationId(trove, owner, 'Garage'),
    });
    // Asset ids are numbered per group; give the drill one that no other group has.
    await trove.query('UPDATE entities SET asset_id = 555555 WHERE id = $1', [drill.id]);
    drill = { ...drill, assetId: '555-555' };
  });
  afterAll(async () => {
    await trove.close();
    await rm(printer, { recursive: true, force: true });
  });
  beforeEach(async () => {
    for (const file of ['calls.jsonl', 'printed.png', 'fail', 'kill']) {
      await rm(path.join(printer, file), { force: true });
    }
  });

  const label = (route: string, session: Session) =>
    trove.http.get(`/api/v1/labelmaker/${route}`).set('Authorization', session.authorization);

  async function calls(): Promise<string[][]> {
    if (!existsSync(path.join(printer, 'calls.jsonl'))) return [];
    const text = await readFile(path.join(printer, 'calls.jsonl'), 'utf8');
    return text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as string[]);
  }

  describe('success', () => {
    it('renders with the configured size and public hostname', async () => {
      const response = await label(`item/${drill.id}`, owner).expect(200);
      expect(await pngSize(response.body)).toEqual({ width: 600, height: 240 });
      await expectQrCodeOf(response.body, `https://labels.example.com/item/${drill.id}`);
      await label(`asset/${drill.assetId}`, owner).expect(200);
      expect(await calls()).toEqual([]);
    });

    it('runs the print command without a shell on a temporary PNG, then removes it', async () => {
      const response = await label(`item/${drill.id}?print=true`, owner).expect(200);
      expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(response.text).toBe('Printed!');

      const recorded = await calls();
      expect(recorded).toEqual([
        [
          expect.stringMatching(/\.png$/),
          `; touch ${printer}/pwned`,
          '$(touch',
          `${printer}/pwned-too)`,
          '|',
          'id',
        ],
      ]);
      expect(existsSync(path.join(printer, 'pwned'))).toBe(false);
      expect(existsSync(path.join(printer, 'pwned-too'))).toBe(false);
      const temporary = recorded[0][0];
      expect(existsSync(temporary)).toBe(false);
      expect(existsSync(path.dirname(temporary))).toBe(false);

      const printed = await readFile(path.join(printer, 'printed.png'));
      const rendered = await label(`item/${drill.id}`, owner).expect(200);
      expect(printed.equals(rendered.body as Buffer)).toBe(true);
    });

    it('prints asset labels too', async () => {
      const response = await label(`asset/${drill.assetId}?print=1`, owner).expect(200);
      expect(response.text).toBe('Printed!');
      const printed = await readFile(path.join(printer, 'printed.png'));
      expect(await pngSize(printed)).toEqual({ width: 600, height: 240 });
      await expectQrCodeOf(printed, `https://labels.example.com/a/${drill.assetId}`);
    });
  });

  describe('failures', () => {
    it('answers 502 with the exit code when the command fails, and still removes the file', async () => {
      await writeFile(path.join(printer, 'fail'), '');
      await label(`entity/${drill.id}?print=true`, owner).expect(502, {
        error: 'label printing failed: exit code 3',
      });
      const recorded = await calls();
      expect(recorded).toHaveLength(1);
      expect(existsSync(recorded[0][0])).toBe(false);
      expect(existsSync(path.join(printer, 'printed.png'))).toBe(false);
    });

    it('answers 502 with the signal when the command is killed', async () => {
      await writeFile(path.join(printer, 'kill'), '');
      await label(`entity/${drill.id}?print=true`, owner).expect(502, {
        error: 'label printing failed: signal SIGKILL',
      });
      expect(await calls()).toHaveLength(1);
    });
  });

  describe('viewers and other groups', () => {
    it('refuses a viewer (403) without running the command', async () => {
      await label(`item/${drill.id}?print=true`, viewer).expect(403, {
        error: 'viewers of this collection can only read',
      });
      await label(`item/${drill.id}`, viewer).expect(200);
      expect(await calls()).toEqual([]);
    });

    it('does not print another group’s entity (404)', async () => {
      await label(`item/${drill.id}?print=true`, stranger).expect(404);
      await label(`asset/${drill.assetId}?print=true`, stranger).expect(404, {
        error: 'failed to find asset id',
      });
      expect(await calls()).toEqual([]);
    });
  });
});
