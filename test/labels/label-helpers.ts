import QRCode from 'qrcode';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { Session } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';
export { createEntity } from '../support/api.js';

/** The first bytes of every PNG file. */
export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Asserts a PNG file's signature and returns its size. */
export async function pngSize(png: unknown): Promise<{ width: number; height: number }> {
  expect(Buffer.isBuffer(png)).toBe(true);
  const bytes = png as Buffer;
  expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  const metadata = await sharp(bytes).metadata();
  expect(metadata.format).toBe('png');
  return { width: metadata.width, height: metadata.height };
}

/** A text's QR code (error correction M) as rows of `#` (dark) and `.` (light) modules. */
export function qrRows(text: string): string[] {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  return Array.from({ length: modules.size }, (_row, row) =>
    Array.from({ length: modules.size }, (_column, column) =>
      modules.get(row, column) ? '#' : '.',
    ).join(''),
  );
}

interface ReadQr {
  /** Rows of `#` and `.`, read at the centre of each module. */
  rows: string[];
  /** Pixels a module. */
  scale: number;
  /** Where the code's top-left module is. */
  left: number;
  top: number;
}

/**
 * Reads the left-most QR code of an image as `size` × `size` modules. Its top-left finder
 * pattern is found as the first dark column's first dark pixel; the finder's top edge is 7
 * modules wide, which gives the module size. Comparing the result with `qrRows(text)` proves
 * that the image encodes `text` (no QR decoder is needed).
 */
export async function readQr(png: Buffer, size: number): Promise<ReadQr> {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  const dark = (x: number, y: number): boolean => data[y * info.width + x] < 128;
  let left = -1;
  let top = -1;
  for (let x = 0; x < info.width && left < 0; x++) {
    for (let y = 0; y < info.height; y++) {
      if (dark(x, y)) {
        left = x;
        top = y;
        break;
      }
    }
  }
  expect(left).toBeGreaterThanOrEqual(0);
  let run = 0;
  while (left + run < info.width && dark(left + run, top)) run++;
  expect(run % 7).toBe(0);
  const scale = run / 7;
  const rows = Array.from({ length: size }, (_row, row) =>
    Array.from({ length: size }, (_column, column) => {
      const x = left + column * scale + Math.floor(scale / 2);
      const y = top + row * scale + Math.floor(scale / 2);
      return x < info.width && y < info.height && dark(x, y) ? '#' : '.';
    }).join(''),
  );
  return { rows, scale, left, top };
}

/** Asserts that the image's left-most QR code encodes `text`; returns where it is. */
export async function expectQrCodeOf(png: Buffer, text: string): Promise<ReadQr> {
  const expected = qrRows(text);
  const read = await readQr(png, expected.length);
  expect(read.rows).toEqual(expected);
  return read;
}

/** How many dark pixels the image has right of column `fromX`: text was drawn there. */
export async function darkPixelsRightOf(png: Buffer, fromX: number): Promise<number> {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let y = 0; y < info.height; y++) {
    for (let x = fromX; x < info.width; x++) if (data[y * info.width + x] < 128) count++;
  }
  return count;
}

export interface CreatedEntity {
  id: string;
  name: string;
  /** Formatted, `000-123`. */
  assetId: string;
}

/** The id of a location every new group starts with (Garage, Kitchen, ...). */
export async function seededLocationId(
  trove: TestApp,
  session: Session,
  name: string,
): Promise<string> {
  const [row] = await trove.query<{ id: string }>(
    'SELECT id FROM entities WHERE group_id = $1 AND name = $2',
    [session.groupId, name],
  );
  return row.id;
}

/** The id of the group's entity type that makes locations. */
export async function locationTypeId(trove: TestApp, session: Session): Promise<string> {
  const [row] = await trove.query<{ id: string }>(
    'SELECT id FROM entity_types WHERE group_id = $1 AND is_location ORDER BY name LIMIT 1',
    [session.groupId],
  );
  return row.id;
}
