import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { Response, Test } from 'supertest';
import { expect } from 'vitest';
import type { Session } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';
import { as } from '../support/api.js';
export { UNKNOWN_ID, as, createEntity } from '../support/api.js';

export const NO_TOKEN = { error: 'authorization header or query is required' };
export const BAD_TOKEN = { error: 'valid authorization token is required' };
export const VIEWER_ONLY_READS = { error: 'viewers of this collection can only read' };
/** A token that looks like a session token but was never issued. */
export const FORGED_TOKEN = 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJub2JvZHkifQ.c2lnbmF0dXJl';
/** A well-formed id that belongs to nothing. */

export { validation } from '../support/auth-expectations.js';

export const DOWNLOAD_CSP =
  "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox";

export const ATTACHMENT_KEYS = [
  'createdAt',
  'id',
  'mimeType',
  'path',
  'primary',
  'thumbnail',
  'title',
  'type',
  'updatedAt',
];
export const STORED_KEYS = [
  'created_at',
  'edges',
  'id',
  'mime_type',
  'path',
  'primary',
  'title',
  'type',
  'updated_at',
];

export interface AttachmentBody {
  id: string;
  createdAt: string;
  updatedAt: string;
  mimeType: string;
  path: string;
  primary: boolean;
  title: string;
  type: string;
  thumbnail: null | {
    id: string;
    created_at: string;
    updated_at: string;
    mime_type: string;
    path: string;
    primary: boolean;
    title: string;
    type: string;
    edges: Record<string, unknown>;
  };
}

export interface EntityWithAttachments {
  id: string;
  name: string;
  imageId: string | null;
  thumbnailId: string | null;
  attachments: AttachmentBody[];
  [key: string]: unknown;
}

export const attachmentsUrl = (entityId: string): string =>
  `/api/v1/entities/${entityId}/attachments`;
export const attachmentUrl = (entityId: string, attachmentId: string): string =>
  `${attachmentsUrl(entityId)}/${attachmentId}`;

export async function getEntity(
  trove: Pick<TestApp, 'http'>,
  session: Session,
  id: string,
): Promise<EntityWithAttachments> {
  const response = await as(trove, session, 'get', `/api/v1/entities/${id}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as EntityWithAttachments;
}

export interface UploadInput {
  content: Buffer;
  name?: string;
  type?: string;
  primary?: string;
  /** What the client claims; Trove ignores it. */
  contentType?: string;
}

/** POST multipart as `session`; the response as it comes. */
export function upload(
  trove: Pick<TestApp, 'http'>,
  session: Session,
  entityId: string,
  input: UploadInput,
): Promise<Response> {
  let request = as(trove, session, 'post', attachmentsUrl(entityId)).attach('file', input.content, {
    filename: 'upload.bin',
    contentType: input.contentType ?? 'image/jpeg',
  });
  if (input.name !== undefined) request = request.field('name', input.name);
  if (input.type !== undefined) request = request.field('type', input.type);
  if (input.primary !== undefined) request = request.field('primary', input.primary);
  return request;
}

/** Uploads and expects 201; the new attachment (the last one of that title) and the entity. */
export async function uploadOk(
  trove: Pick<TestApp, 'http'>,
  session: Session,
  entityId: string,
  input: UploadInput & { name: string },
): Promise<{ attachment: AttachmentBody; entity: EntityWithAttachments }> {
  const response = await upload(trove, session, entityId, input);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  const entity = response.body as EntityWithAttachments;
  const newest = [...entity.attachments].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const attachment = newest.filter((item) => item.title === titleOf(input.name)).at(-1);
  expect(attachment).toBeDefined();
  return { attachment: attachment!, entity };
}

const titleOf = (name: string): string => name.split(/[/\\]/).at(-1)!;

/**
 * Polls the entity until the attachment has a thumbnail (every 100 ms, for at most 20 s: thumbnails
 * are made in the background, and a loaded machine may take a while), then reads it once
 * more: the summary's queries are not one snapshot, so the read that first shows the thumbnail
 * may have read the entity's `thumbnailId` just before it was committed.
 */
export async function waitForThumbnail(
  trove: Pick<TestApp, 'http'>,
  session: Session,
  entityId: string,
  attachmentId: string,
): Promise<{ attachment: AttachmentBody; entity: EntityWithAttachments }> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const polled = await getEntity(trove, session, entityId);
    if (polled.attachments.find((item) => item.id === attachmentId)?.thumbnail) {
      const entity = await getEntity(trove, session, entityId);
      const attachment = entity.attachments.find((item) => item.id === attachmentId)!;
      return { attachment, entity };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no thumbnail for attachment ${attachmentId} after 20 s`);
}

/** A JPEG `width` × `height` as stored, left half red, right half blue, with an EXIF orientation. */
export function jpeg(width: number, height: number, orientation = 1): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#0000ff' } })
    .composite([
      {
        input: {
          create: { width: Math.floor(width / 2), height, channels: 3, background: '#ff0000' },
        },
        left: 0,
        top: 0,
      },
    ])
    .jpeg({ quality: 90 })
    .withMetadata({ orientation })
    .toBuffer();
}

export function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: '#00ff0080' } })
    .png()
    .toBuffer();
}

/** A minimal one-page PDF, written by hand. */
export function pdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** The storage key Trove derives for content in a group. */
export const keyOf = (content: Buffer, groupId: string): string =>
  `${groupId}/documents/${createHash('sha256').update(content).update(groupId).digest('hex')}`;

/** Files under the local storage root (relative keys), temporary ones excluded. */
export async function storedKeys(trove: TestApp): Promise<string[]> {
  const root = path.join(trove.config.dataDir, 'attachments');
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((key) => !key.startsWith('.tmp'))
    .sort();
}

/** Files left in the upload staging directory. */
function stagedFiles(trove: TestApp): Promise<string[]> {
  return readdir(path.join(trove.config.dataDir, 'tmp', 'uploads')).catch(() => []);
}

/**
 * Expects the upload staging directory to be empty within 5 s: when a multipart body breaks
 * off, multer may answer before the cut-off temporary file is gone.
 */
export async function expectNoStagedFiles(trove: TestApp): Promise<void> {
  await expect.poll(() => stagedFiles(trove), { timeout: 5_000 }).toEqual([]);
}

/** supertest's parser for a binary body: collects it into a Buffer, whatever the type. */
export const binary = ((
  response: NodeJS.ReadableStream,
  callback: (error: Error | null, body: Buffer) => void,
): void => {
  const chunks: Buffer[] = [];
  response.on('data', (chunk: Buffer) => chunks.push(chunk));
  response.on('end', () => callback(null, Buffer.concat(chunks)));
  response.on('error', (error: Error) => callback(error, Buffer.alloc(0)));
}) as unknown as Parameters<Test['parse']>[0];

export const attachmentRows = (trove: TestApp, entityId: string) =>
  trove.query<{ id: string; type: string; path: string; mime_type: string; primary: boolean }>(
    'SELECT id, type, path, mime_type, "primary" FROM attachments WHERE entity_id = $1 ORDER BY created_at',
    [entityId],
  );
