import type { UserAttachmentType } from '../entities/views/attachments/attachment-type.js';

/** Longest title (the column is varchar(255), counted in characters). */
export const TITLE_MAX_LENGTH = 255;

/** Extensions Homebox treats as photos when an upload names no type. */
export const PHOTO_EXTENSIONS = new Set([
  'jpg',
  'jpeg',
  'png',
  'webp',
  'gif',
  'bmp',
  'tiff',
  'avif',
  'ico',
  'heic',
  'jxl',
]);

/** Control characters, and the bidirectional overrides that make `gpj.exe` read as `exe.jpg`. */
const UNSAFE_CHARACTERS = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** The extension after the last dot, lower-cased (`.jpg` has `jpg`, as in Homebox). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot === -1 ? '' : name.slice(dot + 1).toLowerCase();
}

/**
 * Cuts a title to `TITLE_MAX_LENGTH` characters, keeping a short extension so that the type
 * stays recognisable.
 */
export function fitTitle(title: string, max = TITLE_MAX_LENGTH): string {
  const characters = [...title];
  if (characters.length <= max) return title;
  const extension = extensionOf(title);
  const kept = extension.length > 0 && extension.length <= 16 ? extension.length + 1 : 0;
  const tail = kept > 0 ? characters.slice(-kept) : [];
  return [...characters.slice(0, max - kept), ...tail].join('');
}

/**
 * What a client's file name becomes as a title: its last path segment (either separator), with
 * no control characters and no `..`, at most 255 characters; "" when nothing is left.
 */
export function safeBaseName(name: string): string {
  const segments = name
    .replace(UNSAFE_CHARACTERS, '')
    .split(/[/\\]/)
    .map((segment) => segment.trim())
    .filter((segment) => segment !== '' && !/^\.+$/.test(segment));
  let base = segments.at(-1) ?? '';
  while (base.includes('..')) base = base.replaceAll('..', '.');
  return fitTitle(base);
}

/** The type of an upload that names none: `photo` for image extensions, else `attachment`. */
export function typeFromFileName(name: string): UserAttachmentType {
  return PHOTO_EXTENSIONS.has(extensionOf(name)) ? 'photo' : 'attachment';
}
