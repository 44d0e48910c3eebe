import { open } from 'node:fs/promises';
import { fileTypeModule } from '../../platform/runtime/on-first-use.js';

/** What a file whose type is not recognised is served as. */
export const UNKNOWN_MIME_TYPE = 'application/octet-stream';

/** Bytes of a text file looked at for markup. */
const TEXT_SNIFF_BYTES = 1024;

/** Starts of HTML documents (WHATWG MIME sniffing), each followed by a space or `>`. */
const HTML_STARTS = [
  '<!doctype html',
  '<html',
  '<head',
  '<script',
  '<iframe',
  '<h1',
  '<div',
  '<font',
  '<table',
  '<a',
  '<style',
  '<title',
  '<b',
  '<body',
  '<br',
  '<p',
  '<!--',
];

/**
 * The type of a text file from its first bytes: HTML, XML or SVG markup (so that it is never
 * served as harmless text), else `text/plain`.
 */
export function sniffTextType(head: Buffer): string {
  const text = head
    .toString('utf8')
    .replace(/^\ufeff/, '')
    .replace(/^[\t\n\f\r ]+/, '')
    .toLowerCase();
  for (const start of HTML_STARTS) {
    if (text.startsWith(start)) {
      const next = text.charAt(start.length);
      if (start === '<!--' || next === ' ' || next === '>' || next === '\t' || next === '\n') {
        return 'text/html';
      }
    }
  }
  if (text.startsWith('<?xml')) return /<svg[\s>]/.test(text) ? 'image/svg+xml' : 'text/xml';
  if (/^<svg[\s>]/.test(text)) return 'image/svg+xml';
  return 'text/plain';
}

/**
 * The MIME type of an uploaded file from its content, never from what the client says: the
 * signature of a known format, else for valid UTF-8 without NULs `text/plain` (or the markup
 * type its first bytes show), else `application/octet-stream`.
 */
export async function sniffMimeType(file: string, utf8Text: boolean): Promise<string> {
  const { fileTypeFromFile } = await fileTypeModule();
  const detected = await fileTypeFromFile(file);
  if (detected) return detected.mime;
  if (!utf8Text) return UNKNOWN_MIME_TYPE;
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(TEXT_SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, TEXT_SNIFF_BYTES, 0);
    return sniffTextType(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}
