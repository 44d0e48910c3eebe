import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { TimestampedRecord } from '../../platform/database/timestamped.record.js';
import type { GroupRecord } from '../../identity/groups/group.record.js';
import type { TemplateRecord } from '../templates/template.record.js';

/** Classifies entities; `isLocation` makes its entities locations or containers. */
@Entity('entity_types')
@Index(['groupId', 'name'])
export class EntityTypeRecord extends TimestampedRecord {
  @Column('uuid')
  groupId: string;

  @ManyToOne('GroupRecord', { onDelete: 'CASCADE' })
  @JoinColumn()
  group?: Relation<GroupRecord>;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 1000, default: '' })
  description: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  icon: string;

  @Column({ type: 'boolean', default: false })
  isLocation: boolean;

  @Index()
  @Column({ type: 'uuid', nullable: true })
  defaultTemplateId: string | null;

  @ManyToOne('TemplateRecord', { onDelete: 'SET NULL' })
  @JoinColumn()
  defaultTemplate?: Relation<TemplateRecord> | null;
}
