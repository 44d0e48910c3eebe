import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * Labels are drawn with DejaVu Sans from the `dejavu-fonts-ttf` package (Bitstream Vera
 * licence, DejaVu changes in the public domain), loaded by path, so they render the same on a
 * machine or container without any system fonts.
 */
export const FONT_FAMILY = 'DejaVu Sans';
export const REGULAR_FONT_FILE = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
export const BOLD_FONT_FILE = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');
