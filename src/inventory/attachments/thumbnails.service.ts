import { createHash } from 'node:crypto';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Transactional } from '@nestjs-cls/transactional';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { JobQueue } from '../../platform/jobs/job-queue.js';
import { Storage } from '../../platform/storage/storage.js';
import { StoredFilesService } from '../stored-files/stored-files.service.js';
import { AttachmentRepository } from './attachment.repository.js';
import type { AttachmentActionResultDto } from './dto/attachment-action-result.dto.js';
import { TITLE_MAX_LENGTH } from './file-name.js';
import { ChangeEvents } from '../../platform/change-events/change-events.service.js';
import { sharpModule } from '../../platform/runtime/on-first-use.js';

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

/** The queue thumbnails are made on. */
export const THUMBNAIL_JOB = 'thumbnails.make';

interface ThumbnailJob {
  photoId: string;
}

/**
 * WebP thumbnails of photos, no larger than `TROVE_THUMBNAIL_WIDTH` × `HEIGHT`, upright as the
 * photo's EXIF orientation says. Each is an attachment row of type `thumbnail` on the photo's
 * entity, which the photo's `thumbnailId` points at. An upload queues the work on the durable
 * job queue in its own transaction, so a photo stored is a thumbnail promised: whichever
 * instance runs workers makes it, after a crash or restart too, and a failure is retried.
 */
@Injectable()
export class ThumbnailsService implements OnModuleInit {
  private readonly logger = new Logger('Thumbnails');

  constructor(
    private readonly attachments: AttachmentRepository,
    private readonly storage: Storage,
    private readonly storedFiles: StoredFilesService,
    private readonly jobs: JobQueue,
    private readonly config: ConfigService<TroveConfig, true>,
    private readonly changes: ChangeEvents,
  ) {}

  onModuleInit(): void {
    this.jobs.register<ThumbnailJob>({
      name: THUMBNAIL_JOB,
      retryLimit: 3,
      concurrency: 1,
      handle: async ({ photoId }) => {
        await this.makeFor(photoId);
      },
    });
  }

  /** Whether a photo of this MIME type gets a thumbnail. */
  canMake(mimeType: string): boolean {
    return (
      this.config.get('thumbnails', { infer: true }).enabled && THUMBNAIL_SOURCE_TYPES.has(mimeType)
    );
  }

  /**
   * Queues the making of a new photo's thumbnail, in the caller's unit of work (nothing when its
   * type gets none).
   */
  async queue(photoId: string, mimeType: string): Promise<void> {
    if (this.canMake(mimeType)) await this.jobs.send<ThumbnailJob>(THUMBNAIL_JOB, { photoId });
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
    if (made) await this.changes.publish(groupId, 'entity.mutation');
    else await this.storedFiles.releaseUnused([key]);
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
    const sharp = await sharpModule();
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
