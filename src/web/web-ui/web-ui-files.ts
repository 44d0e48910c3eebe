import { realpathSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import compressible from 'compressible';
import type { NextFunction, Request, Response } from 'express';
import mime from 'mime-types';
import send from 'send';
import { MIN_COMPRESSED_BYTES, type FileCopies, type TextEdit } from './file-copies.js';
import { isApiPath } from './web-paths.js';
import { isAlwaysTrovePage } from '../pages/page-paths.js';

/** Content-hashed build output: a new build has new names, so a year and `immutable`. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Names that stay while their content changes: revalidated on every load (ETag). */
const REVALIDATE = 'no-cache';
/** Precompressed siblings, in the order Trove prefers them. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;
/** A second encoding of `.`, `/` or `\`: a path that was encoded twice. */
const DOUBLE_ENCODED = /%(2e|2f|5c|00)/i;

/** Why a path is refused before the directory is looked at. */
export const MALFORMED_PATH = 'malformed path';

/**
 * How long a file may be kept: Nuxt's `/_nuxt/` assets carry their content's hash in their names,
 * except what names the current build (`/_nuxt/builds/`); everything else (`index.html`,
 * `200.html`, the service worker and `workbox-*.js`, the web manifest, icons) is revalidated.
 */
export function cacheControlFor(relativePath: string): string {
  return relativePath.startsWith('_nuxt/') && !relativePath.startsWith('_nuxt/builds/')
    ? IMMUTABLE
    : REVALIDATE;
}

/**
 * The path relative to the directory that a request names, or undefined when it is malformed
 * or tries to leave the directory: an encoding that does not decode, NUL, a backslash, a `..`
 * segment (however encoded) or a second encoding of any of these.
 */
export function relativePathOf(requestPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(requestPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\') || DOUBLE_ENCODED.test(decoded)) {
    return undefined;
  }
  const segments = decoded.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment === '..' || segment === '.')) return undefined;
  return segments.join('/');
}

/** The app's entry pages: what serves the app's own routes. */
export const ENTRY_PAGES = ['index.html', '200.html'];

/** What a path inside the directory names. */
type Lookup = { kind: 'file'; real: string; size: number } | { kind: 'outside' } | { kind: 'none' };

interface FoundFile {
  /** Real path of the file to send (the file itself or its precompressed sibling). */
  file: string;
  /** Content type of the file as named. */
  type: string;
  encoding: string | undefined;
  /** Whether compressed forms exist, so that answers vary with Accept-Encoding. */
  varies: boolean;
}

const logger = new Logger('WebUi');

/**
 * Serves a built single-page app from `directory` (for the requests `isWebUiRequest` picks):
 * files as they are (their content types, ETag and If-None-Match, Range, a
 * precompressed `.br` or `.gz` sibling when the client accepts it, or else for a compressible
 * type a copy compressed on its first request, kept in `copies`), and `index.html` for any
 * path that names no file (the app's own routes). With `entryPageEdit`, the entry pages are
 * served as a copy with the edit applied (and compressed as any other file without siblings).
 * Nothing outside the directory is reachable, through `..`, encodings or symbolic links; a
 * directory is never listed.
 */
export function serveWebUiFiles(
  directory: string,
  copies: FileCopies,
  entryPageEdit?: TextEdit,
): (request: Request, response: Response, next: NextFunction) => void {
  const root = realpathSync(directory);
  const inside = (file: string): boolean => file.startsWith(`${root}${path.sep}`);

  /** The real path of a regular file inside the directory, or what else the path names. */
  const findFile = async (relative: string): Promise<Lookup> => {
    const real = await realpath(path.join(root, relative)).catch(() => undefined);
    if (real === undefined) return { kind: 'none' };
    if (!inside(real)) return { kind: 'outside' };
    const info = await stat(real).catch(() => undefined);
    return info?.isFile() ? { kind: 'file', real, size: info.size } : { kind: 'none' };
  };

  const negotiate = async (
    request: Request,
    { real, size }: { real: string; size: number },
    named: string,
  ): Promise<FoundFile> => {
    const type = mime.contentType(path.extname(named) || '.bin') || 'application/octet-stream';
    let varies = false;
    // An edited copy has no siblings: theirs would be of the file as it is on disk.
    for (const { name, suffix } of inside(real) ? ENCODINGS : []) {
      const sibling = await findFile(`${path.relative(root, real)}${suffix}`);
      if (sibling.kind !== 'file') continue;
      varies = true;
      if (request.acceptsEncodings(name) === name) {
        return { file: sibling.real, type, encoding: name, varies };
      }
    }
    if (varies || size < MIN_COMPRESSED_BYTES || !compressible(type)) {
      return { file: real, type, encoding: undefined, varies };
    }
    const encoding = ENCODINGS.find(({ name }) => request.acceptsEncodings(name) === name)?.name;
    if (encoding === undefined) return { file: real, type, encoding: undefined, varies: true };
    try {
      return { file: await copies.compressed(real, encoding), type, encoding, varies: true };
    } catch (error) {
      logger.warn(`could not compress ${named}, sent as it is: ${(error as Error).message}`);
      return { file: real, type, encoding: undefined, varies: true };
    }
  };

  const sendFile = (
    request: Request,
    response: Response,
    found: FoundFile,
    cacheControl: string,
  ): void => {
    response.setHeader('Content-Type', found.type);
    response.setHeader('Cache-Control', cacheControl);
    if (found.varies) response.setHeader('Vary', 'Accept-Encoding');
    if (found.encoding) response.setHeader('Content-Encoding', found.encoding);
    send(request, encodeURI(found.file), {
      etag: true,
      lastModified: true,
      acceptRanges: true,
      cacheControl: false,
      // Dot segments were refused above; the directory itself may live below one.
      dotfiles: 'allow',
      index: false,
    })
      .on('error', (error: { status?: number }) => {
        if (response.headersSent) {
          response.destroy();
          return;
        }
        response.removeHeader('Content-Encoding');
        response.removeHeader('Cache-Control');
        response
          .status(error.status ?? 500)
          .json({ error: error.status === 404 ? 'not found' : 'could not read the file' });
      })
      .pipe(response);
  };

  const serve = async (request: Request, response: Response): Promise<void> => {
    const relative = relativePathOf(request.path);
    if (relative === undefined) {
      response.status(400).json({ error: MALFORMED_PATH });
      return;
    }
    const hidden = relative.split('/').some((segment) => segment.startsWith('.'));
    const found: Lookup = relative === '' || hidden ? { kind: 'none' } : await findFile(relative);
    if (found.kind === 'outside') {
      response.status(404).json({ error: 'not found' });
      return;
    }
    if (found.kind === 'file') {
      const file = await negotiate(request, await asServed(found, relative), relative);
      sendFile(request, response, file, cacheControlFor(relative));
      return;
    }
    // The app's own routes (`/home`, `/item/<id>`): its entry page, which routes on the client.
    const index = await findFile('index.html');
    if (index.kind !== 'file') {
      response.status(404).json({ error: 'not found' });
      return;
    }
    const page = await asServed(index, 'index.html');
    sendFile(request, response, await negotiate(request, page, 'index.html'), REVALIDATE);
  };

  /** The file to serve for a found one: an entry page's edited copy, or the file itself. */
  const asServed = async (
    found: { real: string; size: number },
    relative: string,
  ): Promise<{ real: string; size: number }> => {
    if (!entryPageEdit || !ENTRY_PAGES.includes(relative)) return found;
    const real = await copies.edited(found.real, entryPageEdit);
    return { real, size: (await stat(real)).size };
  };

  return (request, response, next) => {
    serve(request, response).catch(next);
  };
}

/** Whether the web UI directory answers a request: any GET or HEAD outside the API. */
export function isWebUiRequest(request: Request): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    !isApiPath(request.path) &&
    !isAlwaysTrovePage(request.path)
  );
}
