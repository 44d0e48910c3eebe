import { createHash } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Transactional } from '@nestjs-cls/transactional';
import sharp from 'sharp';
import type { AuthUser } from '../auth/auth-user.js';
import type { TroveConfig } from '../config/configuration.js';
import { Storage } from '../storage/storage.js';
import { StoredFilesService } from './stored-files.service.js';
import { AttachmentRepository } from './attachment.repository.js';
import type { AttachmentActionResultDto } from './dto/attachment-action-result.dto.js';
import { TITLE_MAX_LENGTH } from './file-name.js';

/** Photo formats a thumbnail is made of (what sharp reads). */
export const THUMBNAIL_SOURCE_TYPES = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/tiff',
  'image/avif',
  'image/heic',
  'image/heif',
]);

export const THUMBNAIL_MIME_TYPE = 'image/webp';
const THUMBNAIL_SUFFIX = '-thumb';

/** Larger images are refused rather than decoded (a decompression bomb fits in a few MB). */
const MAX_INPUT_PIXELS = 100_000_000;

/** `<title>-thumb`, within the title limit. */
export const thumbnailTitle = (title: string): string =>
  [...title].slice(0, TITLE_MAX_LENGTH - THUMBNAIL_SUFFIX.length).join('') + THUMBNAIL_SUFFIX;

/**
 * WebP thumbnails of photos, no larger than `TROVE_THUMBNAIL_WIDTH` × `HEIGHT`, upright as the
 * photo's EXIF orientation says. Each is an attachment row of type `thumbnail` on the photo's
 * entity, which the photo's `thumbnailId` points at. After an upload the work goes to a small
 * in-process queue, one photo at a time, so the response does not wait; if the process stops
 * first, `create-missing-thumbnails` makes up for it. Failures are logged and never thrown out.
 */
@Injectable()
export class ThumbnailsService implements OnModuleDestroy {
  private readonly logger = new Logger('Thumbnails');
  private readonly queue: string[] = [];
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly attachments: AttachmentRepository,
    private readonly storage: Storage,
    private readonly storedFiles: StoredFilesService,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  /** Whether a photo of this MIME type gets a thumbnail. */
  canMake(mimeType: string): boolean {
    return (
      this.config.get('thumbnails', { infer: true }).enabled && THUMBNAIL_SOURCE_TYPES.has(mimeType)
    );
  }

  /** Makes the photo's thumbnail soon, after the current request has been answered. */
  enqueue(photoId: string): void {
    if (this.stopped) return;
    this.queue.push(photoId);
    this.kick();
  }

  /** Stops taking work and waits for the photo in hand, so the database outlives it. */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    this.queue.length = 0;
    await this.running;
  }

  /** Makes the thumbnails the group's photos lack, now; `completed` is the number made. */
  async createMissing(user: AuthUser): Promise<AttachmentActionResultDto> {
    if (!this.config.get('thumbnails', { infer: true }).enabled) return { completed: 0 };
    const photoIds = await this.attachments.photosWithoutThumbnail(user.groupId, [
      ...THUMBNAIL_SOURCE_TYPES,
    ]);
    let made = 0;
    for (const photoId of photoIds) {
      if (await this.makeSafely(photoId)) made += 1;
    }
    return { completed: made };
  }

  /**
   * Makes the thumbnail of a photo that has none; false when there is nothing to do (the photo
   * is gone, has one, or is not an image sharp reads). Throws when the image cannot be read.
   */
  async makeFor(photoId: string): Promise<boolean> {
    const photo = await this.attachments.findWithGroup(photoId);
    if (!photo?.entity || photo.type !== 'photo' || photo.thumbnailId) return false;
    if (!this.canMake(photo.mimeType)) return false;
    const webp = await this.render(photo.path);
    const groupId = photo.entity.groupId;
    const digest = createHash('sha256').update(webp).update(groupId).digest('hex');
    const key = `${groupId}/documents/${digest}`;
    const made = await this.attach(photoId, key, webp);
    if (!made) await this.storedFiles.releaseUnused([key]);
    return made;
  }

  /**
   * Stores the thumbnail under `key` and links it to the photo, unless the photo is gone or got
   * a thumbnail meanwhile (then false).
   */
  @Transactional()
  private async attach(photoId: string, key: string, webp: Buffer): Promise<boolean> {
    await this.storedFiles.storeOnce(key, () => webp, THUMBNAIL_MIME_TYPE);
    const current = await this.attachments.findLockedWithoutThumbnail(photoId);
    if (!current) return false;
    const thumbnail = await this.attachments.insert({
      entityId: current.entityId,
      type: 'thumbnail',
      primary: false,
      title: thumbnailTitle(current.title),
      path: key,
      mimeType: THUMBNAIL_MIME_TYPE,
    });
    await this.attachments.setThumbnail(current.id, thumbnail.id);
    return true;
  }

  private kick(): void {
    if (this.running || this.stopped || this.queue.length === 0) return;
    this.running = this.work().finally(() => {
      this.running = null;
      this.kick();
    });
  }

  private async work(): Promise<void> {
    // Let the response that queued the work go out first.
    await setImmediate();
    for (let id = this.queue.shift(); id !== undefined; id = this.queue.shift()) {
      await this.makeSafely(id);
      if (this.stopped) return;
    }
  }

  private async makeSafely(photoId: string): Promise<boolean> {
    try {
      return await this.makeFor(photoId);
    } catch (error) {
      this.logger.warn(
        `could not make the thumbnail of photo ${photoId}: ${error instanceof Error ? error.message : String(error)}`,
      );
      return false;
    }
  }

  /** The WebP thumbnail of a stored image, upright and within the configured box. */
  private async render(key: string): Promise<Buffer> {
    const { width, height } = this.config.get('thumbnails', { infer: true });
    const { body } = await this.storage.get(key);
    const transformer = sharp({ limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width, height, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 });
    body.once('error', (error) => transformer.destroy(error));
    body.pipe(transformer);
    try {
      return await transformer.toBuffer();
    } finally {
      body.destroy();
    }
  }
}
