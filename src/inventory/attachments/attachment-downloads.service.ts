import type { Readable } from 'node:stream';
import { Injectable, Logger, NotFoundException } from '@nestjs/common';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { Storage } from '../../platform/storage/storage.js';
import { LINK_MIME_TYPE } from '../entities/views/attachments/attachment-type.js';
import { AttachmentsService } from './attachments.service.js';
import { UNKNOWN_MIME_TYPE } from './mime-sniff.js';
import {
  contentDisposition,
  DOWNLOAD_SECURITY_HEADERS,
  entityTagOf,
  httpDate,
  isNotModified,
  parseByteRange,
  rangeStillApplies,
  toSeconds,
  type DownloadConditions,
} from './download-rules.js';

/** How to answer a download: status, headers, and the bytes (or a small JSON error). */
export interface DownloadResponse {
  status: 200 | 206 | 302 | 304 | 416;
  headers: Record<string, string>;
  /** Opens the bytes to send; absent when there is no body. */
  open?: () => Promise<Readable>;
  json?: { error: string };
}

/**
 * Downloads of attachments: a link is a redirect to its URL; a file is sent with its stored MIME
 * type, validators for conditional requests, one byte range when asked, and headers that keep
 * a browser from running anything in it.
 */
@Injectable()
export class AttachmentDownloadsService {
  private readonly logger = new Logger('AttachmentDownloads');

  constructor(
    private readonly attachments: AttachmentsService,
    private readonly storage: Storage,
  ) {}

  async prepare(
    user: AuthUser,
    entityId: string,
    id: string,
    method: string,
    conditions: DownloadConditions,
  ): Promise<DownloadResponse> {
    const record = await this.attachments.findOwnedOrFail(user, entityId, id);
    if (record.mimeType === LINK_MIME_TYPE) {
      return { status: 302, headers: { Location: record.path, 'Cache-Control': 'no-store' } };
    }
    const info = await this.storage.head(record.path);
    if (!info) {
      this.logger.warn(`attachment ${record.id} has no stored file (key ${record.path})`);
      throw new NotFoundException(`the file of attachment ${record.id} is missing`);
    }
    const entityTag = entityTagOf(record.path);
    const lastModified = toSeconds(record.createdAt);
    const validators = {
      ETag: entityTag,
      'Last-Modified': httpDate(lastModified),
      'Cache-Control': 'private, no-cache',
    };
    if (isNotModified(conditions, entityTag, lastModified)) {
      return { status: 304, headers: validators };
    }
    const headers: Record<string, string> = {
      ...validators,
      ...DOWNLOAD_SECURITY_HEADERS,
      'Accept-Ranges': 'bytes',
    };
    const range =
      conditions.range !== undefined &&
      rangeStillApplies(conditions.ifRange, entityTag, lastModified)
        ? parseByteRange(conditions.range, info.size)
        : undefined;
    if (range === 'unsatisfiable') {
      return {
        status: 416,
        headers: { ...headers, 'Content-Range': `bytes */${info.size}` },
        json: { error: `range not satisfiable: the file has ${info.size} bytes` },
      };
    }
    const mimeType = record.mimeType || UNKNOWN_MIME_TYPE;
    headers['Content-Type'] = mimeType;
    headers['Content-Disposition'] = contentDisposition(record.title, mimeType);
    const head = method === 'HEAD';
    if (range) {
      headers['Content-Range'] = `bytes ${range.start}-${range.end}/${info.size}`;
      headers['Content-Length'] = String(range.end - range.start + 1);
      return {
        status: 206,
        headers,
        open: head ? undefined : async () => (await this.storage.get(record.path, range)).body,
      };
    }
    headers['Content-Length'] = String(info.size);
    return {
      status: 200,
      headers,
      open: head ? undefined : async () => (await this.storage.get(record.path)).body,
    };
  }
}
