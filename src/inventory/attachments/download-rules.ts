import { createHash } from 'node:crypto';
import type { ByteRange } from '../../platform/storage/storage.js';

/** Types a browser may show in place: images it cannot run script from, and PDF. */
export const INLINE_MIME_TYPES = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/bmp',
  'image/tiff',
  'image/avif',
  'application/pdf',
]);

/** Served with every stored file, so an uploaded HTML or SVG file can never run script. */
export const DOWNLOAD_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
  'X-Content-Type-Options': 'nosniff',
  'X-Download-Options': 'noopen',
};

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** RFC 8187 encoding of a file name (`filename*=UTF-8''...`). */
export function encodeFileName(title: string): string {
  return encodeURIComponent(title.replace(LONE_SURROGATE, '\ufffd')).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** `inline` for safe images and PDF, `attachment` for everything else, with the title. */
export function contentDisposition(title: string, mimeType: string): string {
  const disposition = INLINE_MIME_TYPES.has(mimeType) ? 'inline' : 'attachment';
  return `${disposition}; filename*=UTF-8''${encodeFileName(title)}`;
}

/**
 * A strong validator for the file of a key. Keys are content-addressed (their last segment is a
 * hash of the bytes), so the key names the content.
 */
export function entityTagOf(key: string): string {
  const last = key.slice(key.lastIndexOf('/') + 1);
  const tag = /^[0-9a-f]{16,128}$/i.test(last)
    ? last
    : createHash('sha256').update(key).digest('hex');
  return `"${tag}"`;
}

/** The request headers that make a download conditional or partial. */
export interface DownloadConditions {
  range?: string;
  ifRange?: string;
  ifNoneMatch?: string;
  ifModifiedSince?: string;
}

const opaque = (tag: string): string => tag.trim().replace(/^W\//, '');

/**
 * Whether the client's copy is current (RFC 9110 §13.1): If-None-Match (weak comparison) when
 * sent, else If-Modified-Since.
 */
export function isNotModified(
  conditions: DownloadConditions,
  entityTag: string,
  lastModified: Date,
): boolean {
  if (conditions.ifNoneMatch !== undefined) {
    const tags = conditions.ifNoneMatch.split(',').map((tag) => tag.trim());
    return tags.includes('*') || tags.some((tag) => opaque(tag) === opaque(entityTag));
  }
  if (conditions.ifModifiedSince !== undefined) {
    const since = Date.parse(conditions.ifModifiedSince);
    return !Number.isNaN(since) && lastModified.getTime() <= since;
  }
  return false;
}

/** Whether a Range applies under If-Range: same strong entity tag, or exactly the same date. */
export function rangeStillApplies(
  ifRange: string | undefined,
  entityTag: string,
  lastModified: Date,
): boolean {
  if (ifRange === undefined) return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === entityTag;
  return Date.parse(value) === lastModified.getTime();
}

/**
 * One byte range of a file of `size` bytes: the range, `unsatisfiable` (416), or undefined when
 * the header is malformed or asks for several ranges (then the whole file is sent, RFC 9110
 * §14.2 lets a server ignore Range).
 */
export function parseByteRange(
  header: string,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/i.exec(header.replace(/\s+/g, ''));
  if (!match) return undefined;
  const [, first, last] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/** A date as HTTP writes it, to the second. */
export const httpDate = (date: Date): string => date.toUTCString();

/** A time cut to whole seconds, the precision of HTTP dates. */
export const toSeconds = (date: Date): Date => new Date(Math.floor(date.getTime() / 1000) * 1000);
