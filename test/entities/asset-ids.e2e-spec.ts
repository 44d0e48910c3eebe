import { parse } from 'csv-parse/sync';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  exportZip,
  importZip,
  restoreZip,
  unzip,
  waitForJob,
  zipOf,
  type ExportBody,
} from '../collection-backups/backup-helpers.js';
import { createEmptyGroup } from '../entities-export/export-helpers.js';
import { IMPORT_URL } from '../entities-import/import-helpers.js';
import { expectQrCodeOf } from '../labels/label-helpers.js';
import { as, createEntity, useTestApp } from '../support/api.js';
import { signUp, type Session } from '../support/factories.js';
import { homeboxCollection, writeHomeboxZip } from '../support/homebox-zip.js';
import { createTemplate } from '../templates/template-helpers.js';

/** Asset ids as stored and as Homebox shows them, around six digits and up to the largest. */
const ASSET_IDS: [stored: string, shown: string][] = [
  ['999999', '999-999'],
  ['1000000', '100-0000'],
  ['1234567', '123-4567'],
  ['9007199254740993', '900-7199254740993'],
  ['9223372036854775807', '922-3372036854775807'],
];

const TOO_LARGE = '9223372036854775808';
const TOO_LARGE_MESSAGE = `"${TOO_LARGE}" is larger than the largest asset id, 9223372036854775807`;

describe('asset ids of any length', () => {
  const app = useTestApp({ TROVE_THUMBNAIL_ENABLED: 'false' });

  /** The group's asset ids as PostgreSQL holds them, by entity name. */
  const storedAssetIds = async (groupId: string): Promise<Record<string, string>> => {
    const rows = await app.trove.query<{ name: string; asset_id: string }>(
      'SELECT name, asset_id::text AS asset_id FROM entities WHERE group_id = $1 AND asset_id > 0',
      [groupId],
    );
    return Object.fromEntries(rows.map((row) => [row.name, row.asset_id]));
  };

  /** Entities `Asset <stored>` given each asset id by PUT, sent plain and formatted in turn. */
  const seedAssetIds = async (session: Session, tenant?: string): Promise<string[]> => {
    const ids: string[] = [];
    for (const [index, [stored, shown]] of ASSET_IDS.entries()) {
      const created = await as(app.trove, session, 'post', '/api/v1/entities', tenant).send({
        name: `Asset ${stored}`,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = (created.body as { id: string }).id;
      const put = await as(app.trove, session, 'put', `/api/v1/entities/${id}`, tenant).send({
        name: `Asset ${stored}`,
        assetId: index % 2 === 0 ? stored : shown,
      });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      expect(put.body).toMatchObject({ id, assetId: shown });
      ids.push(id);
    }
    return ids;
  };

  describe('through the API', () => {
    let owner: Session;
    let stranger: Session;
    let ids: string[];

    beforeAll(async () => {
      owner = await signUp(app.trove);
      stranger = await signUp(app.trove);
      ids = await seedAssetIds(owner);
    });

    it('PUT keeps every one exactly; get, /assets/{id}, the #filter and labels show it', async () => {
      // Besides the starter locations' 1 to 6.
      expect(await storedAssetIds(owner.groupId)).toEqual(
        expect.objectContaining(
          Object.fromEntries(ASSET_IDS.map(([stored]) => [`Asset ${stored}`, stored])),
        ),
      );
      for (const [index, [stored, shown]] of ASSET_IDS.entries()) {
        const id = ids[index];
        const got = await as(app.trove, owner, 'get', `/api/v1/entities/${id}`).expect(200);
        expect(got.body).toMatchObject({ id, assetId: shown });
        for (const written of [shown, stored, `${'0'.repeat(3)}${stored}`]) {
          const found = await as(app.trove, owner, 'get', `/api/v1/assets/${written}`).expect(200);
          expect(found.body).toEqual({
            page: -1,
            pageSize: -1,
            total: 1,
            items: [expect.objectContaining({ id, name: `Asset ${stored}`, assetId: shown })],
          });
        }
        const listed = await as(app.trove, owner, 'get', '/api/v1/entities')
          .query({ q: `#${shown}` })
          .expect(200);
        expect(listed.body.items.map((item: { id: string }) => item.id)).toEqual([id]);
        const label = await as(app.trove, owner, 'get', `/api/v1/labelmaker/asset/${stored}`)
          .buffer(true)
          .expect(200);
        await expectQrCodeOf(label.body as Buffer, `${app.trove.baseUrl}/a/${shown}`);
        const theirs = await as(app.trove, stranger, 'get', `/api/v1/assets/${shown}`).expect(200);
        expect(theirs.body).toEqual({ page: -1, pageSize: -1, total: 0, items: [] });
      }
    });

    it("the entity's history shows each change of asset id as a JSON number with all its digits", async () => {
      for (const [index, [stored]] of ASSET_IDS.entries()) {
        const history = await as(
          app.trove,
          owner,
          'get',
          `/api/v1/entities/${ids[index]}/history`,
        ).expect(200);
        // The PUT's change to it (or the create's, when the create gave it that number).
        expect(history.text).toMatch(
          new RegExp(`\\{"field":"assetId","before":(null|\\d+),"after":${stored}\\}`),
        );
      }
    });

    it('refuses one larger than the largest bigint, or an inexact JSON number, changing nothing', async () => {
      const id = ids[2];
      // The asset id as the JSON text of the request writes it.
      const cases: [string, string][] = [
        [`"${TOO_LARGE}"`, `assetId ${TOO_LARGE_MESSAGE}`],
        [
          '"922-3372036854775808"',
          'assetId "922-3372036854775808" is larger than the largest asset id, 9223372036854775807',
        ],
        [
          '9007199254740993',
          'assetId 9007199254740992 is too large to be read exactly as a JSON number; send an ' +
            'asset id above 9007199254740991 as text, like "900-7199254740993"',
        ],
      ];
      for (const [assetId, message] of cases) {
        const response = await as(app.trove, owner, 'put', `/api/v1/entities/${id}`)
          .set('Content-Type', 'application/json')
          .send(`{"name":"Renamed","assetId":${assetId}}`);
        expect(response.status).toBe(422);
        expect(response.body).toEqual({ error: 'Validation Error', fields: { assetId: message } });
      }
      const got = await as(app.trove, owner, 'get', `/api/v1/entities/${id}`).expect(200);
      expect(got.body).toMatchObject({ name: 'Asset 1234567', assetId: '123-4567' });
      expect((await storedAssetIds(owner.groupId))['Asset 1234567']).toBe('1234567');

      await as(app.trove, owner, 'get', `/api/v1/assets/${TOO_LARGE}`).expect(400, {
        error: `invalid asset id: ${TOO_LARGE_MESSAGE}`,
      });
      await as(app.trove, owner, 'get', `/api/v1/labelmaker/asset/${TOO_LARGE}`).expect(400, {
        error: `invalid asset id: ${TOO_LARGE_MESSAGE}`,
      });
      // Not an asset id the group can have: searched as text, which nothing holds.
      const listed = await as(app.trove, owner, 'get', '/api/v1/entities')
        .query({ q: `#${TOO_LARGE}` })
        .expect(200);
      expect(listed.body.total).toBe(0);
    });

    it('needs a token, and a PUT into another group finds nothing', async () => {
      await app.trove.http.get(`/api/v1/assets/${ASSET_IDS[2][1]}`).expect(401);
      await app.trove.http
        .get(`/api/v1/assets/${ASSET_IDS[2][1]}`)
        .set('Authorization', 'Bearer nonsense')
        .expect(401);
      await as(app.trove, stranger, 'put', `/api/v1/entities/${ids[2]}`)
        .send({ name: 'Theirs', assetId: '123-4568' })
        .expect(404);
      expect((await storedAssetIds(owner.groupId))['Asset 1234567']).toBe('1234567');
    });
  });

  it('a new entity takes the next number, exact in the stored view of a create from a template', async () => {
    const owner = await signUp(app.trove);
    const first = await createEntity(app.trove, owner, 'First');
    await as(app.trove, owner, 'put', `/api/v1/entities/${first.id}`)
      .send({ name: 'First', assetId: '900-7199254740993' })
      .expect(200);
    const next = await createEntity(app.trove, owner, 'Next');
    expect(next.assetId).toBe('900-7199254740994');
    const template = await createTemplate(app.trove, owner, { name: 'Box', defaultName: 'Box' });
    const created = await as(
      app.trove,
      owner,
      'post',
      `/api/v1/templates/${template.id}/create-item`,
    )
      .send({})
      .expect(201);
    // The stored view's asset_id is a JSON number, with all its digits.
    expect(created.text).toContain('"asset_id":9007199254740995,');
    const got = await as(app.trove, owner, 'get', `/api/v1/entities/${created.body.id}`).expect(
      200,
    );
    expect(got.body.assetId).toBe('900-7199254740995');
  });

  it('a group whose highest asset id is the largest refuses a new entity with 409, writing nothing', async () => {
    const owner = await signUp(app.trove);
    const last = await createEntity(app.trove, owner, 'Last');
    await as(app.trove, owner, 'put', `/api/v1/entities/${last.id}`)
      .send({ name: 'Last', assetId: '9223372036854775807' })
      .expect(200);
    const template = await createTemplate(app.trove, owner, { name: 'Box', defaultName: 'Box' });
    const countEntities = async (): Promise<number> => {
      const [row] = await app.trove.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM entities WHERE group_id = $1',
        [owner.groupId],
      );
      return row.count;
    };
    const before = await countEntities();
    const refused = {
      error:
        'the group has used every asset id up to 9223372036854775807; give its highest asset id ' +
        'a lower number to create more entities',
    };

    const created = await as(app.trove, owner, 'post', '/api/v1/entities').send({ name: 'Next' });
    expect([created.status, created.body]).toEqual([409, refused]);
    const fromTemplate = await as(
      app.trove,
      owner,
      'post',
      `/api/v1/templates/${template.id}/create-item`,
    ).send({});
    expect([fromTemplate.status, fromTemplate.body]).toEqual([409, refused]);
    expect(await countEntities()).toBe(before);

    await as(app.trove, owner, 'put', `/api/v1/entities/${last.id}`)
      .send({ name: 'Last', assetId: '9223372036854775805' })
      .expect(200);
    const next = await createEntity(app.trove, owner, 'Next');
    expect(next.assetId).toBe('922-3372036854775806');
  });

  describe('CSV export and import', () => {
    let owner: Session;
    let groupId: string;

    beforeAll(async () => {
      owner = await signUp(app.trove);
      groupId = await createEmptyGroup(app.trove, owner, 'Assets');
      await seedAssetIds(owner, groupId);
    });

    it('exports them as Homebox writes them, and an import into another group keeps them', async () => {
      const exported = await as(app.trove, owner, 'get', '/api/v1/entities/export', groupId);
      expect(exported.status).toBe(200);
      const [header, ...rows]: string[][] = parse(exported.text);
      const column = (name: string): number => header.indexOf(name);
      expect(
        Object.fromEntries(rows.map((row) => [row[column('HB.name')], row[column('HB.asset_id')]])),
      ).toEqual(Object.fromEntries(ASSET_IDS.map(([stored, shown]) => [`Asset ${stored}`, shown])));

      const copy = await createEmptyGroup(app.trove, owner, 'Copy');
      const imported = await as(app.trove, owner, 'post', IMPORT_URL, copy).attach(
        'csv',
        Buffer.from(exported.text),
        'export.csv',
      );
      expect(imported.status, JSON.stringify(imported.body)).toBe(204);
      expect(await storedAssetIds(copy)).toEqual(await storedAssetIds(groupId));
      const again = await as(app.trove, owner, 'get', '/api/v1/entities/export', copy);
      expect(again.text).toContain(',123-4567,');
      const found = await as(app.trove, owner, 'get', '/api/v1/assets/123-4567', copy).expect(200);
      expect(found.body.items.map((item: { name: string }) => item.name)).toEqual([
        'Asset 1234567',
      ]);
    });

    it('an import with one larger than the largest names it and writes nothing', async () => {
      const before = await storedAssetIds(groupId);
      const response = await as(app.trove, owner, 'post', IMPORT_URL, groupId).attach(
        'csv',
        Buffer.from(
          `HB.location,HB.name,HB.asset_id\nAttic,Huge,${TOO_LARGE}\nAttic,Fine,123-4569\n`,
        ),
        'huge.csv',
      );
      expect(response.status).toBe(422);
      expect(response.body).toEqual({
        error: 'Validation Error',
        fields: { csv: 'the file has 1 problem; nothing was imported' },
        problems: [{ line: 2, column: 'HB.asset_id', reason: TOO_LARGE_MESSAGE }],
        problemCount: 1,
      });
      expect(await storedAssetIds(groupId)).toEqual(before);
    });
  });

  describe('collection backups', () => {
    it('a backup round trip keeps every one exactly', async () => {
      const owner = await signUp(app.trove);
      await seedAssetIds(owner);
      const { zip } = await exportZip(app.trove, owner);
      const entities = JSON.parse((await unzip(zip)).get('entities.json')!.toString()) as {
        name: string;
        asset_id: string;
      }[];
      expect(
        entities.filter((row) => row.name.startsWith('Asset ')).map((row) => row.asset_id),
      ).toEqual(expect.arrayContaining(ASSET_IDS.map(([stored]) => stored)));

      const restorer = await signUp(app.trove);
      await restoreZip(app.trove, restorer, zip);
      expect(await storedAssetIds(restorer.groupId)).toEqual(await storedAssetIds(owner.groupId));
      for (const [stored, shown] of ASSET_IDS) {
        const found = await as(app.trove, restorer, 'get', `/api/v1/assets/${shown}`).expect(200);
        expect(found.body.items.map((item: { name: string }) => item.name)).toEqual([
          `Asset ${stored}`,
        ]);
      }
    });

    it("reads a Homebox zip's int64 asset id exactly, and a negative one as none", async () => {
      const collection = homeboxCollection();
      const file = await writeHomeboxZip(collection);
      const entries = await unzip(await readFile(file));
      await rm(path.dirname(file), { recursive: true, force: true });
      const entitiesJson = entries.get('entities.json')!.toString();
      expect(entitiesJson).toContain('"asset_id":42,');
      const changed = entitiesJson
        .replace('"asset_id":42,', '"asset_id":9223372036854775807,')
        .replace('"asset_id":0,', '"asset_id":-1,');
      const owner = await signUp(app.trove);
      await restoreZip(
        app.trove,
        owner,
        await zipOf(
          Object.fromEntries(
            [...entries].map(([name, bytes]) => [name, name === 'entities.json' ? changed : bytes]),
          ),
        ),
      );
      expect(Object.values(await storedAssetIds(owner.groupId))).toEqual(['9223372036854775807']);
      const found = await as(app.trove, owner, 'get', '/api/v1/assets/922-3372036854775807').expect(
        200,
      );
      expect(found.body.total).toBe(1);
    });

    it('fails a restore whose asset id is larger than the largest, writing nothing', async () => {
      const source = await signUp(app.trove);
      await createEntity(app.trove, source, 'Huge');
      const { zip } = await exportZip(app.trove, source);
      const entries = await unzip(zip);
      const rows = JSON.parse(entries.get('entities.json')!.toString()) as Record<
        string,
        unknown
      >[];
      const huge = rows.find((row) => row.name === 'Huge')!;
      huge.asset_id = TOO_LARGE;
      entries.set('entities.json', Buffer.from(JSON.stringify(rows)));

      const owner = await signUp(app.trove);
      const before = await app.trove.query('SELECT id FROM entities WHERE group_id = $1', [
        owner.groupId,
      ]);
      const response = await importZip(app.trove, owner, await zipOf(Object.fromEntries(entries)));
      expect(response.status).toBe(202);
      const job = await waitForJob(app.trove, owner, (response.body as ExportBody).id);
      expect(job.status).toBe('failed');
      expect(job.error).toContain(`has an asset_id that ${TOO_LARGE_MESSAGE}`);
      expect(
        await app.trove.query('SELECT id FROM entities WHERE group_id = $1', [owner.groupId]),
      ).toEqual(before);
    });
  });
});
