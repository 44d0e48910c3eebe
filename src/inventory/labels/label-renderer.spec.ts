import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { renderLabel, type LabelGeometry } from './label-renderer.js';

const link = 'https://trove.example.com/item/0b7f8a3c-5f7e-4d0e-9a55-3f1c2d7f9e11';
const standard: LabelGeometry = { width: 526, height: 200, margin: 32, padding: 32, fontSize: 32 };

async function darkPixels(png: Buffer, fromX: number): Promise<number> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let y = 0; y < info.height; y++) {
    for (let x = fromX; x < info.width; x++) if (data[y * info.width + x] < 128) count++;
  }
  return count;
}

describe('renderLabel', () => {
  it('draws a greyscale PNG of exactly the configured size, with text right of the code', async () => {
    const png = await renderLabel(
      {
        link,
        title: 'Cordless drill',
        lines: [
          { text: 'Asset ID: 000-001', cut: 'end' },
          { text: 'Garage / Shelf 2', cut: 'start' },
        ],
      },
      standard,
    );
    const metadata = await sharp(png).metadata();
    expect([metadata.format, metadata.width, metadata.height, metadata.channels]).toEqual([
      'png',
      526,
      200,
      1,
    ]);
    expect(await darkPixels(png, 200)).toBeGreaterThan(500);
  });

  it('never grows for long text: titles wrap and are cut, lines are cut', async () => {
    const long = 'An extraordinarily long name '.repeat(9);
    const png = await renderLabel(
      {
        link,
        title: long,
        lines: [
          { text: 'Asset ID: 000-123', cut: 'end' },
          {
            text: 'Basement / Storage room / Left shelf / Top box / Pouch '.repeat(4),
            cut: 'start',
          },
          { text: 'Unbreakable'.repeat(40), cut: 'end' },
        ],
      },
      { width: 300, height: 100, margin: 8, padding: 8, fontSize: 24 },
    );
    const metadata = await sharp(png).metadata();
    expect([metadata.width, metadata.height]).toEqual([300, 100]);
  });

  it('keeps the size on labels too small for text, and with markup characters', async () => {
    const tiny = await renderLabel(
      { link, title: '<b>&</b>', lines: [{ text: '"quoted" & \'single\'', cut: 'end' }] },
      { width: 100, height: 50, margin: 500, padding: 500, fontSize: 300 },
    );
    const tinyMetadata = await sharp(tiny).metadata();
    expect([tinyMetadata.width, tinyMetadata.height]).toEqual([100, 50]);
    const escaped = await renderLabel(
      { link, title: '<b>&</b>\n\tname', lines: [{ text: '"quoted" & \'single\'', cut: 'end' }] },
      standard,
    );
    expect(await darkPixels(escaped, 200)).toBeGreaterThan(100);
  });
});
