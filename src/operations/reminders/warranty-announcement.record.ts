import {
  CreateDateColumn,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
} from 'typeorm';
import type { EntityRecord } from '../../inventory/entities/core/entity.record.js';

/**
 * An ending warranty that a reminder has announced: each entity's end day is announced once (a
 * new end day is announced again).
 */
@Entity('warranty_announcements')
export class WarrantyAnnouncementRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @ManyToOne('EntityRecord', { onDelete: 'CASCADE' })
  @JoinColumn()
  entity?: Relation<EntityRecord>;

  @PrimaryColumn('date')
  warrantyExpires: string;

  @CreateDateColumn({ type: 'timestamptz' })
  announcedAt: Date;
}
