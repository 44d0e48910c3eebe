import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database.js';
import { OwnedLookup, type FindOwnedOptions } from '../../platform/database/owned.js';
import type { AttachmentType } from '../entities/views/attachments/attachment-type.js';
import { AttachmentRecord } from './attachment.record.js';
import {
  CLEAR_PRIMARY,
  COPY_ALL,
  LOCK_ENTITY_ATTACHMENTS,
  PHOTOS_WITHOUT_THUMBNAIL,
  SET_PRIMARY_PHOTOS,
} from './attachment.sql.js';

export interface AttachmentValues {
  entityId: string;
  type: AttachmentType;
  primary: boolean;
  title: string;
  path: string;
  mimeType: string;
}

/** The only code that writes the `attachments` table. */
@Injectable()
export class AttachmentRepository {
  constructor(private readonly db: Database) {}

  /** An attachment of that entity of group `groupId`, or 404 `attachment <id> not found`. */
  findOwned(
    groupId: string,
    entityId: string,
    id: string,
    options?: FindOwnedOptions,
  ): Promise<AttachmentRecord> {
    return new OwnedLookup(this.db, AttachmentRecord, 'attachment', {
      join: 'JOIN entities e ON e.id = o.entity_id',
      condition: 'o.entity_id = $3 AND e.group_id = $1',
      params: [entityId],
    }).find(groupId, id, options);
  }

  /** The attachment `id` of the entity, if there is one. */
  findOfEntity(entityId: string, id: string): Promise<AttachmentRecord | null> {
    return this.db.repository(AttachmentRecord).findOneBy({ id, entityId });
  }

  /** A photo with its entity's id and group, if there is one. */
  findWithGroup(id: string): Promise<AttachmentRecord | null> {
    return this.db
      .repository(AttachmentRecord)
      .createQueryBuilder('a')
      .innerJoin('a.entity', 'e')
      .addSelect(['e.id', 'e.groupId'])
      .where('a.id = :id', { id })
      .getOne();
  }

  /** The photo, locked until the unit of work ends, if it still has no thumbnail. */
  findLockedWithoutThumbnail(id: string): Promise<AttachmentRecord | null> {
    if (!this.db.inTransaction) throw new Error('locking a photo needs a unit of work');
    return this.db
      .repository(AttachmentRecord)
      .createQueryBuilder('a')
      .setLock('pessimistic_write')
      .where('a.id = :id AND a.thumbnail_id IS NULL', { id })
      .getOne();
  }

  /** Group's photos of these MIME types without a thumbnail, oldest first. */
  async photosWithoutThumbnail(groupId: string, mimeTypes: string[]): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(PHOTOS_WITHOUT_THUMBNAIL, [
      groupId,
      mimeTypes,
    ]);
    return rows.map((row) => row.id);
  }

  /** Serialises writes to the entity's attachments until the unit of work ends. */
  async lockEntity(entityId: string): Promise<void> {
    if (!this.db.inTransaction) throw new Error('locking attachments needs a unit of work');
    await this.db.query(LOCK_ENTITY_ATTACHMENTS, [`attachments:${entityId}`]);
  }

  hasPhotos(entityId: string): Promise<boolean> {
    return this.db.repository(AttachmentRecord).exists({ where: { entityId, type: 'photo' } });
  }

  /** Clears the primary flag of the entity's photos (but `exceptId`). */
  async clearPrimary(entityId: string, exceptId?: string): Promise<void> {
    await this.db.query(CLEAR_PRIMARY, [entityId, exceptId ?? null]);
  }

  insert(values: AttachmentValues): Promise<AttachmentRecord> {
    const attachments = this.db.repository(AttachmentRecord);
    return attachments.save(attachments.create({ ...values, thumbnailId: null }));
  }

  /** Changes only these columns, so a thumbnail made meanwhile is kept. */
  async update(
    id: string,
    values: Pick<AttachmentRecord, 'type' | 'title' | 'primary'>,
  ): Promise<void> {
    await this.db.repository(AttachmentRecord).update({ id }, values);
  }

  async setThumbnail(id: string, thumbnailId: string): Promise<void> {
    await this.db.repository(AttachmentRecord).update({ id }, { thumbnailId });
  }

  async delete(id: string): Promise<void> {
    await this.db.repository(AttachmentRecord).delete({ id });
  }

  /** Marks the oldest photo primary on each entity of the group with photos but none. */
  async setPrimaryPhotos(groupId: string, linkMimeType: string): Promise<number> {
    const rows = await this.db.query<{ id: string }>(SET_PRIMARY_PHOTOS, [groupId, linkMimeType]);
    return rows.length;
  }

  /** Copies an entity's attachments but thumbnails to another entity (see `COPY_ALL`). */
  async copyAll(fromEntityId: string, toEntityId: string): Promise<void> {
    await this.db.query(COPY_ALL, [fromEntityId, toEntityId]);
  }
}
