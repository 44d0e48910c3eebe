import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { AuthUser } from '../auth/auth-user.js';
import { ValidationFailedException } from '../common/errors/validation-failed.exception.js';
import type { EntitySummaryDto } from '../entities/dto/entity-summary.dto.js';
import { EntitiesService } from '../entities/entities.service.js';
import { EntityViewsService } from '../entities/entity-views.service.js';
import { StoredFilesService } from '../storage/stored-files.service.js';
import { AttachmentRepository } from './attachment.repository.js';
import { LINK_MIME_TYPE, type AttachmentType } from './attachment-type.js';
import { AttachmentRecord } from './attachment.record.js';
import type { AttachmentActionResultDto } from './dto/attachment-action-result.dto.js';
import type { CreateExternalAttachmentDto } from './dto/create-external-attachment.dto.js';
import type { UpdateAttachmentDto } from './dto/update-attachment.dto.js';
import { fitTitle } from './file-name.js';
import { sniffMimeType } from './mime-sniff.js';
import { ThumbnailsService } from './thumbnails.service.js';
import { parseUploadFields } from './upload-fields.js';
import type { StagedUpload } from './upload/staged-upload.engine.js';

/**
 * Attachments of the caller's group's entities: uploaded files (stored once per group and
 * content, see StoredFilesService) and links. An attachment is only ever reached through its
 * own entity, and that entity through the caller's group. Writes to one entity's attachments
 * are serialised, so the primary-photo rules hold under concurrent uploads.
 */
@Injectable()
export class AttachmentsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly entities: EntitiesService,
    private readonly views: EntityViewsService,
    private readonly storedFiles: StoredFilesService,
    private readonly thumbnails: ThumbnailsService,
    private readonly attachments: AttachmentRepository,
  ) {}

  /**
   * Copies the attachments of one entity to another (a duplicate of it), sharing their stored
   * files; the copies have no thumbnails.
   */
  async copyAll(fromEntityId: string, toEntityId: string): Promise<void> {
    await this.attachments.copyAll(fromEntityId, toEntityId);
  }

  /**
   * Stores an uploaded file as an attachment of the entity. The MIME type comes from the
   * content; the key from the content and the group. The temporary file is removed whatever
   * happens. A photo's thumbnail is made after the response.
   */
  async upload(
    user: AuthUser,
    entityId: string,
    file: StagedUpload | undefined,
    form: unknown,
  ): Promise<EntitySummaryDto> {
    let photoId: string | null = null;
    try {
      const fields = parseUploadFields(form, file !== undefined);
      const staged = file!;
      const mimeType = await sniffMimeType(staged.path, staged.utf8Text);
      const digest = staged.sha256.copy().update(user.groupId).digest('hex');
      const key = `${user.groupId}/documents/${digest}`;
      const record = await this.dataSource.transaction(async (manager) => {
        await this.lockEntityAttachments(manager, user, entityId);
        await this.storedFiles.storeOnce(
          manager,
          key,
          () => createReadStream(staged.path),
          mimeType,
        );
        const primary =
          fields.type === 'photo' && (fields.primary || !(await this.hasPhotos(manager, entityId)));
        return this.insert(manager, {
          entityId,
          type: fields.type,
          primary,
          title: fields.title,
          path: key,
          mimeType,
        });
      });
      if (record.type === 'photo' && this.thumbnails.canMake(mimeType)) photoId = record.id;
    } finally {
      if (file) await rm(file.path, { force: true });
    }
    const summary = await this.views.summary(user.groupId, entityId);
    if (photoId) this.thumbnails.enqueue(photoId);
    return summary;
  }

  /** Keeps a link (an http or https URL) as an attachment; never primary. */
  async createExternal(
    user: AuthUser,
    entityId: string,
    dto: CreateExternalAttachmentDto,
  ): Promise<EntitySummaryDto> {
    const url = new URL(dto.external_id);
    const title = dto.title?.trim() || fitTitle(`${url.origin}${url.pathname}`);
    await this.dataSource.transaction(async (manager) => {
      await this.lockEntityAttachments(manager, user, entityId);
      await this.insert(manager, {
        entityId,
        type: dto.attachment_type ?? 'attachment',
        primary: false,
        title,
        path: url.href,
        mimeType: LINK_MIME_TYPE,
      });
    });
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
  ): Promise<EntitySummaryDto> {
    await this.dataSource.transaction(async (manager) => {
      await this.lockEntityAttachments(manager, user, entityId);
      const record = await this.findOwnedIn(manager, user, entityId, id, true);
      if (record.type === 'thumbnail') {
        throw ValidationFailedException.forField('type', 'a thumbnail cannot be changed');
      }
      const primary =
        dto.type === 'photo' && record.mimeType !== LINK_MIME_TYPE && dto.primary === true;
      if (primary) await this.clearPrimary(manager, entityId, record.id);
      // Only these columns: the thumbnail job may have set thumbnailId meanwhile.
      await manager.update(
        AttachmentRecord,
        { id: record.id },
        { type: dto.type, title: dto.title, primary },
      );
    });
    return this.views.summary(user.groupId, entityId);
  }

  /**
   * Deletes the attachment and, for a photo, its thumbnail; then deletes their files unless
   * another attachment uses them.
   */
  async remove(user: AuthUser, entityId: string, id: string): Promise<void> {
    const keys = await this.dataSource.transaction(async (manager) => {
      await this.lockEntityAttachments(manager, user, entityId);
      // Locked, so a thumbnail being made is either seen here or finds the photo gone.
      const record = await this.findOwnedIn(manager, user, entityId, id, true);
      const paths = [record.path];
      if (record.thumbnailId) {
        const thumbnail = await manager.findOneBy(AttachmentRecord, {
          id: record.thumbnailId,
          entityId,
        });
        if (thumbnail) {
          paths.push(thumbnail.path);
          await manager.delete(AttachmentRecord, { id: thumbnail.id });
        }
      }
      await manager.delete(AttachmentRecord, { id: record.id });
      return paths;
    });
    await this.storedFiles.releaseUnused(keys);
  }

  /** Marks one photo primary (the oldest) on each entity of the group with photos but none. */
  async setPrimaryPhotos(user: AuthUser): Promise<AttachmentActionResultDto> {
    const [rows] = await this.dataSource.query<[{ id: string }[], number]>(
      `UPDATE attachments SET "primary" = true, updated_at = now()
       WHERE id IN (
         SELECT DISTINCT ON (a.entity_id) a.id FROM attachments a
         JOIN entities e ON e.id = a.entity_id
         WHERE e.group_id = $1 AND a.type = 'photo' AND a.mime_type <> $2
           AND NOT EXISTS (
             SELECT 1 FROM attachments p
             WHERE p.entity_id = a.entity_id AND p.type = 'photo' AND p."primary"
           )
         ORDER BY a.entity_id, a.created_at, a.id
       )
       RETURNING id`,
      [user.groupId, LINK_MIME_TYPE],
    );
    return { completed: rows.length };
  }

  /** An attachment of that entity of the caller's group, or 404 (for any other combination). */
  async findOwnedOrFail(user: AuthUser, entityId: string, id: string): Promise<AttachmentRecord> {
    await this.entities.findOwnedOrFail(user, entityId);
    return this.findOwnedIn(this.dataSource.manager, user, entityId, id);
  }

  private async findOwnedIn(
    manager: EntityManager,
    user: AuthUser,
    entityId: string,
    id: string,
    lock = false,
  ): Promise<AttachmentRecord> {
    const query = manager
      .getRepository(AttachmentRecord)
      .createQueryBuilder('a')
      .innerJoin('a.entity', 'e')
      .where('a.id = :id AND a.entity_id = :entityId AND e.group_id = :groupId', {
        id,
        entityId,
        groupId: user.groupId,
      });
    if (lock) query.setLock('pessimistic_write', undefined, ['a']);
    const record = await query.getOne();
    if (!record) throw new NotFoundException(`attachment ${id} not found`);
    return record;
  }

  /**
   * Checks that the entity is the caller's group's (404 otherwise) and serialises writes to its
   * attachments until the transaction ends.
   */
  private async lockEntityAttachments(
    manager: EntityManager,
    user: AuthUser,
    entityId: string,
  ): Promise<void> {
    await this.entities.findOwnedOrFail(user, entityId);
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
      `attachments:${entityId}`,
    ]);
  }

  private async hasPhotos(manager: EntityManager, entityId: string): Promise<boolean> {
    return manager.exists(AttachmentRecord, { where: { entityId, type: 'photo' } });
  }

  /** Clears the primary flag of the entity's photos (but `exceptId`). */
  private async clearPrimary(
    manager: EntityManager,
    entityId: string,
    exceptId?: string,
  ): Promise<void> {
    await manager.query(
      `UPDATE attachments SET "primary" = false, updated_at = now()
       WHERE entity_id = $1 AND "primary" AND ($2::uuid IS NULL OR id <> $2::uuid)`,
      [entityId, exceptId ?? null],
    );
  }

  private async insert(
    manager: EntityManager,
    values: {
      entityId: string;
      type: AttachmentType;
      primary: boolean;
      title: string;
      path: string;
      mimeType: string;
    },
  ): Promise<AttachmentRecord> {
    if (values.primary) await this.clearPrimary(manager, values.entityId);
    return manager.save(
      AttachmentRecord,
      manager.create(AttachmentRecord, { ...values, thumbnailId: null }),
    );
  }
}
