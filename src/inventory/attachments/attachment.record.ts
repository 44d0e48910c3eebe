import { Check, Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { sqlList } from '../../platform/database/sql-list.js';
import { TimestampedRecord } from '../../platform/database/timestamped.record.js';
import type { EntityRecord } from '../entities/core/entity.record.js';
import {
  ATTACHMENT_TYPES,
  type AttachmentType,
} from '../entities/views/attachments/attachment-type.js';

@Entity('attachments')
@Check(`"type" IN (${sqlList(ATTACHMENT_TYPES)})`)
export class AttachmentRecord extends TimestampedRecord {
  @Index()
  @Column('uuid')
  entityId: string;

  @ManyToOne<EntityRecord>('EntityRecord', (entity) => entity.attachments, { onDelete: 'CASCADE' })
  @JoinColumn()
  entity?: Relation<EntityRecord>;

  @Column({ type: 'varchar', length: 16, default: 'attachment' })
  type: AttachmentType;

  @Column({ type: 'boolean', default: false })
  primary: boolean;

  @Column({ type: 'varchar', length: 255, default: '' })
  title: string;

  /** Storage key of the file (never derived from user input), or the URL of a link. */
  @Index()
  @Column({ type: 'text' })
  path: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  mimeType: string;

  @Index()
  @Column({ type: 'uuid', nullable: true })
  thumbnailId: string | null;

  @ManyToOne(() => AttachmentRecord, { onDelete: 'SET NULL' })
  @JoinColumn()
  thumbnail?: Relation<AttachmentRecord> | null;
}
