import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { TimestampedRecord } from '../database/timestamped.record.js';
import { GroupRecord } from '../groups/group.record.js';
import { UserRecord } from '../users/user.record.js';

@Entity('notifiers')
@Index(['groupId', 'userId'])
export class NotifierRecord extends TimestampedRecord {
  @Column('uuid')
  groupId: string;

  @ManyToOne(() => GroupRecord, { onDelete: 'CASCADE' })
  @JoinColumn()
  group?: Relation<GroupRecord>;

  @Index()
  @Column('uuid')
  userId: string;

  @ManyToOne(() => UserRecord, { onDelete: 'CASCADE' })
  @JoinColumn()
  user?: Relation<UserRecord>;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  /** Delivery URL; it may embed secrets. */
  @Column({ type: 'text' })
  url: string;

  @Column({ type: 'boolean', default: true })
  isActive: boolean;
}
