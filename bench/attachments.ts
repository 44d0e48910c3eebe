import { createHash, randomBytes } from 'node:crypto';
import type { BenchSession } from './session.js';

const SIZE = 10 * 1024 * 1024;
const MIB = 1024 * 1024;

export interface AttachmentThroughput {
  bytes: number;
  uploadMs: number;
  downloadMs: number;
  uploadMBps: number;
  downloadMBps: number;
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/**
 * Uploads 10 MiB as an attachment of `entityId`, downloads it again, checks that the bytes came
 * back unchanged, and reports both rates (MiB per second).
 */
export async function measureAttachmentThroughput(
  baseUrl: string,
  session: BenchSession,
  entityId: string,
): Promise<AttachmentThroughput> {
  const content = randomBytes(SIZE);
  const form = new FormData();
  form.append('file', new Blob([content]), 'big.bin');
  form.append('name', 'big.bin');

  const uploadStart = performance.now();
  const uploaded = await fetch(`${baseUrl}/api/v1/entities/${entityId}/attachments`, {
    method: 'POST',
    headers: { authorization: session.authorization },
    body: form,
  });
  const entity = (await uploaded.json()) as { attachments?: { id: string; title: string }[] };
  const uploadMs = performance.now() - uploadStart;
  const attachment = entity.attachments?.find((item) => item.title === 'big.bin');
  if (uploaded.status !== 201 || !attachment) {
    throw new Error(`attachment upload answered ${uploaded.status}`);
  }

  const downloadStart = performance.now();
  const downloaded = await fetch(
    `${baseUrl}/api/v1/entities/${entityId}/attachments/${attachment.id}`,
    { headers: { authorization: session.authorization } },
  );
  const body = new Uint8Array(await downloaded.arrayBuffer());
  const downloadMs = performance.now() - downloadStart;
  if (downloaded.status !== 200 || sha256(body) !== sha256(content)) {
    throw new Error(`attachment download answered ${downloaded.status} or other bytes`);
  }
  const rate = (ms: number): number => Number((SIZE / MIB / (ms / 1000)).toFixed(1));
  return {
    bytes: SIZE,
    uploadMs: Math.round(uploadMs),
    downloadMs: Math.round(downloadMs),
    uploadMBps: rate(uploadMs),
    downloadMBps: rate(downloadMs),
  };
}
