import { createHash } from 'node:crypto';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { expect } from 'vitest';
import type { Session } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';
import { as } from '../support/api.js';
import { binary } from '../attachments/attachment-helpers.js';

export const EXPORTS = '/api/v1/group/exports';
export const IMPORT = '/api/v1/group/import';
export const exportUrl = (id: string): string => `${EXPORTS}/${id}`;
export const downloadUrl = (id: string): string => `${EXPORTS}/${id}/download`;

export interface ExportBody {
  id: string;
  groupId: string;
  kind: 'export' | 'import';
  createdAt: string;
  updatedAt: string;
  status: 'pending' | 'running' | 'completed' | 'failed';
  progress: number;
  artifactPath?: string;
  sizeBytes: number;
  error?: string;
}

/**
 * Polls a job every 100 ms until it has finished (completed or failed), for at most 60 s: jobs
 * run in the background.
 */
export async function waitForJob(
  trove: Pick<TestApp, 'http'>,
  session: Session,
  id: string,
): Promise<ExportBody> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const response = await as(trove, session, 'get', exportUrl(id));
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const job = response.body as ExportBody;
    if (job.status === 'completed' || job.status === 'failed') return job;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`job ${id} has not finished after 60 s`);
}

/** Starts an export as `session`, waits for it to complete, and downloads the zip. */
export async function exportZip(
  trove: Pick<TestApp, 'http'>,
  session: Session,
): Promise<{ job: ExportBody; zip: Buffer }> {
  const started = await as(trove, session, 'post', EXPORTS);
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  const job = await waitForJob(trove, session, (started.body as ExportBody).id);
  expect(job.status, job.error).toBe('completed');
  const zip = await download(trove, session, job.id);
  expect(zip.length).toBe(job.sizeBytes);
  return { job, zip };
}

export async function download(
  trove: Pick<TestApp, 'http'>,
  session: Session,
  id: string,
): Promise<Buffer> {
  const response = await as(trove, session, 'get', downloadUrl(id)).buffer(true).parse(binary);
  expect(response.status).toBe(200);
  return response.body as Buffer;
}

/** Uploads a zip for import as `session`; the response as it comes. */
export function importZip(trove: Pick<TestApp, 'http'>, session: Session, zip: Buffer) {
  return as(trove, session, 'post', IMPORT).attach('file', zip, {
    filename: 'backup.zip',
    contentType: 'application/zip',
  });
}

/** Imports a zip and waits for the job to complete. */
export async function restoreZip(
  trove: Pick<TestApp, 'http'>,
  session: Session,
  zip: Buffer,
): Promise<ExportBody> {
  const response = await importZip(trove, session, zip);
  expect(response.status, JSON.stringify(response.body)).toBe(202);
  const job = await waitForJob(trove, session, (response.body as ExportBody).id);
  expect(job.status, job.error).toBe('completed');
  return job;
}

/** The entries of a zip, by name. */
export async function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  const file = await yauzl.fromBufferPromise(zip, { lazyEntries: true });
  const entries = new Map<string, Buffer>();
  for (;;) {
    const entry = await new Promise<yauzl.Entry | null>((resolve, reject) => {
      file.once('entry', resolve);
      file.once('end', () => resolve(null));
      file.once('error', reject);
      file.readEntry();
    });
    file.removeAllListeners('entry');
    file.removeAllListeners('end');
    file.removeAllListeners('error');
    if (!entry) return entries;
    if (entry.fileName.endsWith('/')) continue;
    const chunks: Buffer[] = [];
    for await (const chunk of await file.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    entries.set(entry.fileName, Buffer.concat(chunks));
  }
}

/** A zip of these entries (stored uncompressed unless `compress`). */
export async function zipOf(
  entries: Record<string, Buffer | string>,
  compress = true,
): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(entries)) {
    zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name, { compress });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

type Row = Record<string, unknown>;

const TABLES = [
  'entity_types',
  'entity_templates',
  'template_fields',
  'tags',
  'entities',
  'entity_fields',
  'entity_tags',
  'maintenance_entries',
  'entity_stock',
  'checkouts',
  'attachments',
];

/** Tables whose rows have no `id` of their own. */
const WITHOUT_ID = new Set(['entity_tags', 'entity_stock']);

/**
 * The tables of a backup zip with every id replaced by a label that does not depend on the id
 * (`<table>#<position>` in an order by content), and attachment file names by the SHA-256 of
 * their bytes: two backups of the same data compare equal.
 */
export function normalizedTables(entries: Map<string, Buffer>): Record<string, Row[]> {
  const tables: Record<string, Row[]> = {};
  for (const table of TABLES) {
    tables[table] = JSON.parse(entries.get(`${table}.json`)!.toString('utf8')) as Row[];
  }
  const labels = new Map<string, string>();
  for (const table of TABLES) {
    if (WITHOUT_ID.has(table)) continue;
    const sorted = [...tables[table]].sort((a, b) => contentKey(a).localeCompare(contentKey(b)));
    sorted.forEach((row, index) => labels.set(row.id as string, `${table}#${index}`));
  }
  const relabel = (value: unknown): unknown =>
    typeof value === 'string' && labels.has(value)
      ? labels.get(value)
      : Array.isArray(value)
        ? value.map(relabel).sort()
        : value;
  const result: Record<string, Row[]> = {};
  for (const table of TABLES) {
    result[table] = tables[table]
      .map((row) => {
        const copy: Row = {};
        for (const [key, value] of Object.entries(row)) copy[key] = relabel(value);
        if (table === 'attachments' && typeof row.file === 'string') {
          copy.file = createHash('sha256')
            .update(entries.get(`attachments/${row.file}`)!)
            .digest('hex');
        }
        return copy;
      })
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  }
  return result;
}

/** What orders rows by content: creation time, then the row without its ids. */
function contentKey(row: Row): string {
  const { id: _id, ...rest } = row;
  const plain = Object.entries(rest)
    .filter(([key]) => !key.endsWith('_id') && key !== 'file')
    .sort(([a], [b]) => a.localeCompare(b));
  return `${String(row.created_at)}|${JSON.stringify(plain)}`;
}

/** What fillCollection made. */
export interface FilledCollection {
  itemId: string;
  photo: Buffer;
  manual: Buffer;
}

/**
 * Gives the session's collection one of everything a backup holds: nested tags, a location and
 * an item in it with tags, custom fields and prices, a maintenance entry, a template with a
 * field, a photo (whose thumbnail is awaited), a PDF and a link.
 */
export async function fillCollection(
  trove: Pick<TestApp, 'http'>,
  session: Session,
  files: { photo: Buffer; manual: Buffer },
  waitForThumbnail: (entityId: string, attachmentId: string) => Promise<unknown>,
): Promise<FilledCollection> {
  const send = async (method: 'post' | 'put', path: string, body: object, status: number) => {
    const response = await as(trove, session, method, path).send(body);
    expect(response.status, JSON.stringify(response.body)).toBe(status);
    return response.body as { id: string };
  };
  const types = (await as(trove, session, 'get', '/api/v1/entity-types').expect(200)).body as {
    id: string;
    isLocation: boolean;
  }[];
  const locationType = types.find((type) => type.isLocation)!;
  const gear = await send('post', '/api/v1/tags', { name: 'Gear', color: '#112233' }, 201);
  const lenses = await send('post', '/api/v1/tags', { name: 'Lenses', parentId: gear.id }, 201);
  const studio = await send(
    'post',
    '/api/v1/entities',
    { name: 'Studio', entityTypeId: locationType.id },
    201,
  );
  const item = await send(
    'post',
    '/api/v1/entities',
    { name: 'Camera', parentId: studio.id, tagIds: [gear.id, lenses.id] },
    201,
  );
  await send(
    'put',
    `/api/v1/entities/${item.id}`,
    {
      name: 'Camera',
      description: 'Mirrorless body',
      parentId: studio.id,
      tagIds: [gear.id, lenses.id],
      quantity: 2,
      serialNumber: 'SN-1',
      manufacturer: 'Fuji',
      insured: true,
      purchasePrice: 1234.56,
      purchaseDate: '2024-03-01',
      warrantyExpires: '2027-03-01',
      notes: 'Bought used',
      fields: [
        { type: 'text', name: 'Mount', textValue: 'X' },
        { type: 'number', name: 'Shutter count', numberValue: 12000 },
        { type: 'boolean', name: 'Boxed', booleanValue: true },
      ],
    },
    200,
  );
  await send(
    'post',
    `/api/v1/entities/${item.id}/maintenance`,
    { name: 'Sensor clean', completedDate: '2025-01-02', cost: '45.50', description: 'Wet' },
    201,
  );
  await send(
    'post',
    '/api/v1/templates',
    {
      name: 'Lens',
      defaultName: 'Lens',
      defaultTagIds: [lenses.id],
      defaultLocationId: studio.id,
      fields: [{ type: 'text', name: 'Focal length', textValue: '35 mm' }],
    },
    201,
  );
  const photo = await as(trove, session, 'post', `/api/v1/entities/${item.id}/attachments`)
    .attach('file', files.photo, { filename: 'front.jpg', contentType: 'image/jpeg' })
    .field('name', 'front.jpg');
  expect(photo.status, JSON.stringify(photo.body)).toBe(201);
  const photoId = (photo.body as { attachments: { id: string; type: string }[] }).attachments.find(
    (attachment) => attachment.type === 'photo',
  )!.id;
  await waitForThumbnail(item.id, photoId);
  const manual = await as(trove, session, 'post', `/api/v1/entities/${item.id}/attachments`)
    .attach('file', files.manual, { filename: 'manual.pdf', contentType: 'application/pdf' })
    .field('name', 'manual.pdf')
    .field('type', 'manual');
  expect(manual.status, JSON.stringify(manual.body)).toBe(201);
  await send(
    'post',
    `/api/v1/entities/${item.id}/attachments/external`,
    { source_type: 'link', external_id: 'https://example.com/camera', title: 'Product page' },
    201,
  );
  return { itemId: item.id, ...files };
}

/** The bytes an attachment download answers. */
export async function bytesOf(
  trove: Pick<TestApp, 'http'>,
  session: Session,
  entityId: string,
  id: string,
): Promise<Buffer> {
  const response = await as(trove, session, 'get', `/api/v1/entities/${entityId}/attachments/${id}`)
    .buffer(true)
    .parse(binary);
  expect(response.status).toBe(200);
  return response.body as Buffer;
}
