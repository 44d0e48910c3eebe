import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { TimestampedRecord } from '../../platform/database/timestamped.record.js';
import type { GroupRecord } from '../../identity/groups/group.record.js';

/** A label for entities; tags nest through their parent. */
@Entity('tags')
@Index(['groupId', 'name'])
export class TagRecord extends TimestampedRecord {
  @Column('uuid')
  groupId: string;

  @ManyToOne('GroupRecord', { onDelete: 'CASCADE' })
  @JoinColumn()
  group?: Relation<GroupRecord>;

  @Index()
  @Column({ type: 'uuid', nullable: true })
  parentId: string | null;

  @ManyToOne(() => TagRecord, { onDelete: 'SET NULL' })
  @JoinColumn()
  parent?: Relation<TagRecord> | null;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 1000, default: '' })
  description: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  color: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  icon: string;
}
