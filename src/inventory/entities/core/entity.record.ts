import {
  Column,
  Entity,
  Index,
  JoinColumn,
  JoinTable,
  ManyToMany,
  ManyToOne,
  OneToMany,
  type Relation,
} from 'typeorm';
import type { AttachmentRecord } from '../../attachments/attachment.record.js';
import { TimestampedRecord } from '../../../platform/database/timestamped.record.js';
import type { EntityTypeRecord } from '../../entity-types/entity-type.record.js';
import type { GroupRecord } from '../../../identity/groups/group.record.js';
import type { MaintenanceEntryRecord } from '../../maintenance/maintenance-entry.record.js';
import type { TagRecord } from '../../tags/tag.record.js';
import { EntityFieldRecord } from './entity-field.record.js';

/** An inventory entity: an item, or a location or container when its type says so. */
@Entity('entities')
@Index(['groupId', 'name'])
@Index(['groupId', 'createdAt'])
@Index(['groupId', 'updatedAt'])
@Index(['groupId', 'assetId'])
@Index(['groupId', 'importRef'])
@Index(['groupId', 'archived', 'entityTypeId'])
// Indexes the schema builder cannot describe (expressions, INCLUDE columns), made by the
// AddEntitySearch, CoverEntityParentIndex, IndexEntityNameOrder and CreateReminderRuns
// migrations; the schema builder leaves them be.
@Index('entities_search_idx', { synchronize: false })
@Index('entities_group_id_name_order_idx', { synchronize: false })
@Index('entities_parent_id_item_count_idx', { synchronize: false })
@Index('entities_warranty_ending_idx', { synchronize: false })
@Index('entities_live_warranty_idx', { synchronize: false })
export class EntityRecord extends TimestampedRecord {
  @Column('uuid')
  groupId: string;

  @ManyToOne('GroupRecord', { onDelete: 'CASCADE' })
  @JoinColumn()
  group?: Relation<GroupRecord>;

  @Index()
  @Column('uuid')
  entityTypeId: string;

  /** A type cannot be deleted while entities use it. */
  @ManyToOne('EntityTypeRecord', { onDelete: 'RESTRICT' })
  @JoinColumn()
  entityType?: Relation<EntityTypeRecord>;

  @Column({ type: 'uuid', nullable: true })
  parentId: string | null;

  /** Deleting a parent moves its children to the top level. */
  @ManyToOne(() => EntityRecord, { onDelete: 'SET NULL' })
  @JoinColumn()
  parent?: Relation<EntityRecord> | null;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 1000, default: '' })
  description: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  importRef: string | null;

  @Column({ type: 'varchar', length: 1000, default: '' })
  notes: string;

  @Column({ type: 'double precision', default: 1 })
  quantity: number;

  @Column({ type: 'boolean', default: false })
  insured: boolean;

  @Column({ type: 'boolean', default: false })
  archived: boolean;

  /** Per-group number shown as `000-123`; 0 means none. */
  @Column({ type: 'bigint', default: 0 })
  assetId: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  serialNumber: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  modelNumber: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  manufacturer: string;

  @Column({ type: 'boolean', default: false })
  lifetimeWarranty: boolean;

  @Column({ type: 'date', nullable: true })
  warrantyExpires: string | null;

  @Column({ type: 'varchar', length: 1000, default: '' })
  warrantyDetails: string;

  @Column({ type: 'date', nullable: true })
  purchaseDate: string | null;

  @Column({ type: 'varchar', length: 255, default: '' })
  purchaseFrom: string;

  @Column({ type: 'numeric', default: 0 })
  purchasePrice: string;

  @Column({ type: 'date', nullable: true })
  soldDate: string | null;

  @Column({ type: 'varchar', length: 255, default: '' })
  soldTo: string;

  @Column({ type: 'numeric', default: 0 })
  soldPrice: string;

  @Column({ type: 'varchar', length: 1000, default: '' })
  soldNotes: string;

  @Column({ type: 'boolean', default: false })
  syncChildEntityLocations: boolean;

  @ManyToMany('TagRecord')
  @JoinTable({
    name: 'entity_tags',
    joinColumn: { name: 'entity_id', referencedColumnName: 'id' },
    inverseJoinColumn: { name: 'tag_id', referencedColumnName: 'id' },
  })
  tags?: Relation<TagRecord>[];

  @OneToMany(() => EntityFieldRecord, (field) => field.entity)
  fields?: Relation<EntityFieldRecord>[];

  @OneToMany<AttachmentRecord>('AttachmentRecord', (attachment) => attachment.entity)
  attachments?: Relation<AttachmentRecord>[];

  @OneToMany<MaintenanceEntryRecord>('MaintenanceEntryRecord', (entry) => entry.entity)
  maintenanceEntries?: Relation<MaintenanceEntryRecord>[];
}
