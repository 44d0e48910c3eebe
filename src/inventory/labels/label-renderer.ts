import type { OverlayOptions } from 'sharp';
import { sharpModule } from '../../platform/runtime/on-first-use.js';
import { BOLD_FONT_FILE, FONT_FAMILY, REGULAR_FONT_FILE } from './label-fonts.js';
import { qrMatrix, qrPng } from './qr-code.js';

/** Size of a label and of its parts, in pixels (from `TROVE_LABEL_MAKER_*`). */
export interface LabelGeometry {
  width: number;
  height: number;
  /** White space around everything. */
  margin: number;
  /** Space between the QR code and the text. */
  padding: number;
  /** Size of the title; the other lines are three quarters of it. */
  fontSize: number;
}

/** A line under the title; a line that is too long loses its end, or its start for paths. */
export interface LabelLine {
  text: string;
  cut: 'end' | 'start';
}

/** What a label shows: a QR code of `link`, and beside it the title (bold) and lines. */
export interface LabelContent {
  link: string;
  title: string;
  lines: LabelLine[];
}

interface TextImage {
  png: Buffer;
  width: number;
  height: number;
}

/** White modules around the code inside its square; the label's margin adds to them. */
const LABEL_QUIET_ZONE = 2;
const ELLIPSIS = '…';

/**
 * Draws a label of exactly `width` × `height` pixels (greyscale PNG): the QR code as large as
 * the height allows (whole pixels a module) on the left, the text on the right, vertically
 * centred. The title wraps over as many lines as fit; what still does not fit is cut with an
 * ellipsis, and lines that leave no room for the title are dropped from the bottom. When the
 * label is too narrow for text, it holds only the QR code.
 */
export async function renderLabel(content: LabelContent, geometry: LabelGeometry): Promise<Buffer> {
  const { width, height } = geometry;
  // A margin that would leave no room for the code is reduced; the code always fits.
  const margin = Math.min(geometry.margin, Math.floor(Math.min(width, height) / 4));
  const box = Math.min(width, height) - 2 * margin;
  const matrix = await qrMatrix(content.link);
  const modules = matrix.size + 2 * LABEL_QUIET_ZONE;
  let qr = await qrPng(matrix, Math.max(1, Math.floor(box / modules)), LABEL_QUIET_ZONE);
  let qrSide = Math.max(1, Math.floor(box / modules)) * modules;
  const sharp = await sharpModule();
  if (qrSide > box) {
    qr = await sharp(qr).resize(box, box, { kernel: 'nearest' }).png().toBuffer();
    qrSide = box;
  }
  const layers: OverlayOptions[] = [
    { input: qr, left: margin, top: Math.floor((height - qrSide) / 2) },
  ];
  const textLeft = margin + qrSide + geometry.padding;
  const text = await fitText(content, geometry.fontSize, width - textLeft - margin, box);
  if (text) {
    layers.push({ input: text.png, left: textLeft, top: Math.floor((height - text.height) / 2) });
  }
  const composed = await sharp({
    create: { width, height, channels: 3, background: '#ffffff' },
  })
    .composite(layers)
    .raw()
    .toBuffer({ resolveWithObject: true });
  // Compositing the text adds an alpha channel; the label is opaque black on white.
  return sharp(composed.data, { raw: composed.info })
    .removeAlpha()
    .toColourspace('b-w')
    .png()
    .toBuffer();
}

/** The text block, at most `maxWidth` × `maxHeight`; undefined when nothing fits. */
async function fitText(
  content: LabelContent,
  titleSize: number,
  maxWidth: number,
  maxHeight: number,
): Promise<TextImage | undefined> {
  if (maxWidth < titleSize || maxHeight < 1) return undefined;
  const lineSize = Math.max(6, Math.round(titleSize * 0.75));
  const fits = (image: TextImage | undefined): image is TextImage =>
    image !== undefined && image.width <= maxWidth && image.height <= maxHeight;

  const lines: string[] = [];
  for (const line of content.lines) {
    const cut = await cutToFit(clean(line.text), line.cut, async (candidate) =>
      fits(await renderText(span(candidate, lineSize, false))),
    );
    if (cut !== undefined) lines.push(cut);
  }
  const title = clean(content.title);
  for (;;) {
    const block = (candidate: string): Promise<TextImage | undefined> =>
      renderText(
        [
          span(candidate, titleSize, true),
          ...lines.map((line) => span(line, lineSize, false)),
        ].join('\n'),
        maxWidth,
      );
    const cut = await cutToFit(title, 'end', async (candidate) => fits(await block(candidate)));
    if (cut !== undefined) {
      const image = await block(cut);
      if (fits(image)) return image;
    }
    if (lines.length === 0) return undefined;
    lines.pop();
  }
}

/**
 * `text` if `fits` accepts it, else the longest cut of it (keeping its start, or its end) with
 * an ellipsis that `fits` accepts; undefined when not even one character with an ellipsis fits.
 */
async function cutToFit(
  text: string,
  from: 'end' | 'start',
  fits: (candidate: string) => Promise<boolean>,
): Promise<string | undefined> {
  if (text === '') return undefined;
  if (await fits(text)) return text;
  const chars = Array.from(text);
  const cut = (count: number): string =>
    from === 'end'
      ? `${chars.slice(0, count).join('').trimEnd()}${ELLIPSIS}`
      : `${ELLIPSIS} ${chars
          .slice(chars.length - count)
          .join('')
          .trimStart()}`;
  let best: string | undefined;
  let low = 1;
  let high = chars.length - 1;
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    const candidate = cut(middle);
    if (await fits(candidate)) {
      best = candidate;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return best;
}

/** One line of text: control characters (line breaks included) become spaces. */
function clean(text: string): string {
  return text
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function span(text: string, size: number, bold: boolean): string {
  const font = `${FONT_FAMILY}${bold ? ' Bold' : ''} ${size}`;
  return `<span font_desc="${font}">${escapeMarkup(text)}</span>`;
}

function escapeMarkup(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

let fontsLoaded: Promise<void> | undefined;

/**
 * libvips loads a `fontfile` into its font map once and keeps it; loading the bold face first
 * lets one layout use both faces through markup.
 */
function loadFonts(): Promise<void> {
  fontsLoaded ??= (async () => {
    const sharp = await sharpModule();
    for (const fontfile of [BOLD_FONT_FILE, REGULAR_FONT_FILE]) {
      await sharp({ text: { text: 'x', font: FONT_FAMILY, fontfile } })
        .png()
        .toBuffer();
    }
  })().catch((error: unknown) => {
    fontsLoaded = undefined;
    throw error;
  });
  return fontsLoaded;
}

/**
 * Lays out Pango markup at 72 dpi (so point sizes are pixels), wrapped at `wrapWidth` when
 * given. The image is cropped to the ink; undefined when there is no ink (only spaces).
 */
async function renderText(markup: string, wrapWidth?: number): Promise<TextImage | undefined> {
  await loadFonts();
  const sharp = await sharpModule();
  try {
    const { data, info } = await sharp({
      text: {
        text: markup,
        font: `${FONT_FAMILY} 12`,
        fontfile: REGULAR_FONT_FILE,
        dpi: 72,
        rgba: true,
        ...(wrapWidth === undefined ? {} : { width: wrapWidth, wrap: 'word-char' as const }),
      },
    })
      .png()
      .toBuffer({ resolveWithObject: true });
    return { png: data, width: info.width, height: info.height };
  } catch (error) {
    if (error instanceof Error && /empty|no text|zero|bad extents/i.test(error.message)) {
      return undefined;
    }
    throw error;
  }
}
