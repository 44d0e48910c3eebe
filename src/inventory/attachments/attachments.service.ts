import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { ValidationFailedException } from '../../platform/errors/validation-failed.exception.js';
import type { JsonText } from '../../platform/http/json-text.js';
import type { EntitySummaryDto } from '../entities/views/dto/entity-summary.dto.js';
import { EntitiesService } from '../entities/core/entities.service.js';
import { EntityViewsService } from '../entities/views/entity-views.service.js';
import { StoredFilesService } from '../stored-files/stored-files.service.js';
import { LINK_MIME_TYPE } from '../entities/views/attachments/attachment-type.js';
import type { AttachmentRecord } from './attachment.record.js';
import { AttachmentRepository, type AttachmentValues } from './attachment.repository.js';
import type { AttachmentActionResultDto } from './dto/attachment-action-result.dto.js';
import type { CreateExternalAttachmentDto } from './dto/create-external-attachment.dto.js';
import type { UpdateAttachmentDto } from './dto/update-attachment.dto.js';
import { fitTitle } from './file-name.js';
import { sniffMimeType } from './mime-sniff.js';
import { ThumbnailsService } from './thumbnails.service.js';
import { parseUploadFields, type UploadFields } from './upload-fields.js';
import type { StagedUpload } from '../../platform/http/upload/staged-upload.engine.js';
import { ChangeEvents } from '../../platform/change-events/change-events.service.js';

/**
 * Attachments of the caller's group's entities: uploaded files (stored once per group and
 * content, see StoredFilesService) and links. An attachment is only ever reached through its
 * own entity, and that entity through the caller's group. Writes to one entity's attachments
 * are serialised, so the primary-photo rules hold under concurrent uploads.
 */
@Injectable()
export class AttachmentsService {
  constructor(
    private readonly attachments: AttachmentRepository,
    private readonly entities: EntitiesService,
    private readonly views: EntityViewsService,
    private readonly storedFiles: StoredFilesService,
    private readonly thumbnails: ThumbnailsService,
    private readonly changes: ChangeEvents,
  ) {}

  /**
   * Stores an uploaded file as an attachment of the entity. The MIME type comes from the
   * content; the key from the content and the group. The temporary file is removed whatever
   * happens. A photo's thumbnail is queued with it and made by a
   * worker.
   */
  async upload(
    user: AuthUser,
    entityId: string,
    file: StagedUpload | undefined,
    form: unknown,
  ): Promise<JsonText<EntitySummaryDto>> {
    try {
      const fields = parseUploadFields(form, file !== undefined);
      const staged = file!;
      const mimeType = await sniffMimeType(staged.path, staged.utf8Text);
      const digest = staged.sha256.copy().update(user.groupId).digest('hex');
      const key = `${user.groupId}/documents/${digest}`;
      await this.entities.findOwned(user, entityId);
      await this.storeUpload(entityId, fields, staged.path, key, mimeType);
    } finally {
      if (file) await rm(file.path, { force: true });
    }
    await this.changes.publish(user.groupId, 'entity.mutation');
    return this.views.summary(user.groupId, entityId);
  }

  /** Keeps a link (an http or https URL) as an attachment; never primary. */
  async createExternal(
    user: AuthUser,
    entityId: string,
    dto: CreateExternalAttachmentDto,
  ): Promise<JsonText<EntitySummaryDto>> {
    const url = new URL(dto.external_id);
    const title = dto.title?.trim() || fitTitle(`${url.origin}${url.pathname}`);
    await this.entities.findOwned(user, entityId);
    await this.insertLocked({
      entityId,
      type: dto.attachment_type ?? 'attachment',
      primary: false,
      title,
      path: url.href,
      mimeType: LINK_MIME_TYPE,
    });
    await this.changes.publish(user.groupId, 'entity.mutation');
    return this.views.summary(user.groupId, entityId);
  }

  /**
   * Full replacement of type, title and primary. Only a photo can be primary, and making one
   * primary clears the entity's other photos. Thumbnails are Trove's and cannot be changed.
   */
  async update(
    user: AuthUser,
    entityId: string,
    id: string,
    dto: UpdateAttachmentDto,
  ): Promise<JsonText<EntitySummaryDto>> {
    await this.entities.findOwned(user, entityId);
    await this.updateLocked(user.groupId, entityId, id, dto);
    await this.changes.publish(user.groupId, 'entity.mutation');
    return this.views.summary(user.groupId, entityId);
  }

  /**
   * Deletes the attachment and, for a photo, its thumbnail; then deletes their files unless
   * another attachment uses them.
   */
  async remove(user: AuthUser, entityId: string, id: string): Promise<void> {
    await this.entities.findOwned(user, entityId);
    const keys = await this.removeLocked(user.groupId, entityId, id);
    await this.changes.publish(user.groupId, 'entity.mutation');
    await this.storedFiles.releaseUnused(keys);
  }

  /** Marks one photo primary (the oldest) on each entity of the group with photos but none. */
  @Transactional()
  async setPrimaryPhotos(user: AuthUser): Promise<AttachmentActionResultDto> {
    const completed = await this.attachments.setPrimaryPhotos(user.groupId, LINK_MIME_TYPE);
    if (completed > 0) await this.changes.publish(user.groupId, 'entity.mutation');
    return { completed };
  }

  /** An attachment of that entity of the caller's group, or 404 (for any other combination). */
  async findOwnedOrFail(user: AuthUser, entityId: string, id: string): Promise<AttachmentRecord> {
    await this.entities.findOwned(user, entityId);
    return this.attachments.findOwned(user.groupId, entityId, id);
  }

  /**
   * Gives entity `toEntityId` the attachments of entity `fromEntityId` (their files are shared,
   * thumbnails are not copied); in the caller's unit of work when one is open.
   */
  async copyAll(fromEntityId: string, toEntityId: string): Promise<void> {
    await this.attachments.copyAll(fromEntityId, toEntityId);
  }

  /*
   * The writes below each run in one unit of work that first serialises writes to the entity's
   * attachments. The caller has checked that the entity is the caller's group's (404 otherwise).
   */

  @Transactional()
  private async storeUpload(
    entityId: string,
    fields: UploadFields,
    filePath: string,
    key: string,
    mimeType: string,
  ): Promise<AttachmentRecord> {
    await this.attachments.lockEntity(entityId);
    await this.storedFiles.storeOnce(key, () => createReadStream(filePath), mimeType);
    const primary =
      fields.type === 'photo' && (fields.primary || !(await this.attachments.hasPhotos(entityId)));
    const record = await this.insert({
      entityId,
      type: fields.type,
      primary,
      title: fields.title,
      path: key,
      mimeType,
    });
    if (record.type === 'photo') await this.thumbnails.queue(record.id, mimeType);
    return record;
  }

  @Transactional()
  private async insertLocked(values: AttachmentValues): Promise<void> {
    await this.attachments.lockEntity(values.entityId);
    await this.insert(values);
  }

  @Transactional()
  private async updateLocked(
    groupId: string,
    entityId: string,
    id: string,
    dto: UpdateAttachmentDto,
  ): Promise<void> {
    await this.attachments.lockEntity(entityId);
    const record = await this.attachments.findOwned(groupId, entityId, id, { lock: true });
    if (record.type === 'thumbnail') {
      throw ValidationFailedException.forField('type', 'a thumbnail cannot be changed');
    }
    const primary =
      dto.type === 'photo' && record.mimeType !== LINK_MIME_TYPE && dto.primary === true;
    if (primary) await this.attachments.clearPrimary(entityId, record.id);
    await this.attachments.update(record.id, { type: dto.type, title: dto.title, primary });
  }

  /** Deletes the rows and returns the keys of their files. */
  @Transactional()
  private async removeLocked(groupId: string, entityId: string, id: string): Promise<string[]> {
    await this.attachments.lockEntity(entityId);
    // Locked, so a thumbnail being made is either seen here or finds the photo gone.
    const record = await this.attachments.findOwned(groupId, entityId, id, { lock: true });
    const paths = [record.path];
    if (record.thumbnailId) {
      const thumbnail = await this.attachments.findOfEntity(entityId, record.thumbnailId);
      if (thumbnail) {
        paths.push(thumbnail.path);
        await this.attachments.delete(thumbnail.id);
      }
    }
    await this.attachments.delete(record.id);
    return paths;
  }

  private async insert(values: AttachmentValues): Promise<AttachmentRecord> {
    if (values.primary) await this.attachments.clearPrimary(values.entityId);
    return this.attachments.insert(values);
  }
}
