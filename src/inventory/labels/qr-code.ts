import type QRCode from 'qrcode';
import { onFirstUse, sharpModule } from '../../platform/runtime/on-first-use.js';

/** The QR code encoder, imported with the first code made. */
const qrCodeModule = onFirstUse(async () => (await import('qrcode')).default);

/** The data does not fit in the largest QR code at error-correction level M. */
export class QrDataTooLongError extends Error {}

/** A QR code's modules: `size` × `size`, `dark(row, column)`. */
export interface QrMatrix {
  size: number;
  dark(row: number, column: number): boolean;
}

/** Encodes text (as UTF-8 where it is not plain digits or capitals) with error correction M. */
export async function qrMatrix(text: string): Promise<QrMatrix> {
  const encoder = await qrCodeModule();
  let modules: QRCode.BitMatrix;
  try {
    modules = encoder.create(text, { errorCorrectionLevel: 'M' }).modules;
  } catch (error) {
    if (error instanceof Error && /too big/i.test(error.message)) {
      throw new QrDataTooLongError(error.message);
    }
    throw error;
  }
  return { size: modules.size, dark: (row, column) => modules.get(row, column) === 1 };
}

/** A greyscale PNG of the code: `scale` pixels a module, with `quietZone` white modules around. */
export async function qrPng(matrix: QrMatrix, scale: number, quietZone: number): Promise<Buffer> {
  const side = (matrix.size + 2 * quietZone) * scale;
  const pixels = Buffer.alloc(side * side, 255);
  for (let row = 0; row < matrix.size; row++) {
    for (let column = 0; column < matrix.size; column++) {
      if (!matrix.dark(row, column)) continue;
      const top = (row + quietZone) * scale;
      const left = (column + quietZone) * scale;
      for (let y = top; y < top + scale; y++)
        pixels.fill(0, y * side + left, y * side + left + scale);
    }
  }
  const sharp = await sharpModule();
  return sharp(pixels, { raw: { width: side, height: side, channels: 1 } })
    .png()
    .toBuffer();
}

/** The smallest image `GET /qrcode` returns, in pixels; modules are whole pixels. */
const QR_CODE_MIN_SIDE = 256;
/** The quiet zone the QR standard asks for, in modules. */
const STANDARD_QUIET_ZONE = 4;

/** `GET /qrcode`: the text as a QR code of at least 256 × 256 pixels with a 4-module quiet zone. */
export async function renderQrCode(text: string): Promise<Buffer> {
  const matrix = await qrMatrix(text);
  const scale = Math.max(1, Math.ceil(QR_CODE_MIN_SIDE / (matrix.size + 2 * STANDARD_QUIET_ZONE)));
  return qrPng(matrix, scale, STANDARD_QUIET_ZONE);
}
