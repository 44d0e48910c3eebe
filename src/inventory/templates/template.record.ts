import { Column, Entity, Index, JoinColumn, ManyToOne, OneToMany, type Relation } from 'typeorm';
import { TimestampedRecord } from '../../platform/database/timestamped.record.js';
import type { EntityRecord } from '../entities/core/entity.record.js';
import type { GroupRecord } from '../../identity/groups/group.record.js';
import { TemplateFieldRecord } from './template-field.record.js';

/** Default values and custom fields from which new entities are created. */
@Entity('entity_templates')
@Index(['groupId', 'name'])
export class TemplateRecord extends TimestampedRecord {
  @Column('uuid')
  groupId: string;

  @ManyToOne('GroupRecord', { onDelete: 'CASCADE' })
  @JoinColumn()
  group?: Relation<GroupRecord>;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 1000, default: '' })
  description: string;

  @Column({ type: 'varchar', length: 1000, default: '' })
  notes: string;

  /** May hold placeholders that are filled when an entity is created. */
  @Column({ type: 'varchar', length: 255, default: '' })
  defaultName: string;

  @Column({ type: 'varchar', length: 1000, default: '' })
  defaultDescription: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  defaultManufacturer: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  defaultModelNumber: string;

  @Column({ type: 'double precision', default: 1 })
  defaultQuantity: number;

  @Column({ type: 'boolean', default: false })
  defaultInsured: boolean;

  @Column({ type: 'boolean', default: false })
  defaultLifetimeWarranty: boolean;

  @Column({ type: 'varchar', length: 1000, default: '' })
  defaultWarrantyDetails: string;

  @Index()
  @Column({ type: 'uuid', nullable: true })
  defaultLocationId: string | null;

  @ManyToOne('EntityRecord', { onDelete: 'SET NULL' })
  @JoinColumn()
  defaultLocation?: Relation<EntityRecord> | null;

  @Column({ type: 'uuid', array: true, default: () => "'{}'" })
  defaultTagIds: string[];

  @Column({ type: 'boolean', default: false })
  includePurchaseFields: boolean;

  @Column({ type: 'boolean', default: false })
  includeSoldFields: boolean;

  @Column({ type: 'boolean', default: false })
  includeWarrantyFields: boolean;

  @OneToMany(() => TemplateFieldRecord, (field) => field.template)
  fields?: Relation<TemplateFieldRecord>[];
}
