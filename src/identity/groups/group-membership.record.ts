import {
  Check,
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  Unique,
  type Relation,
} from 'typeorm';
import { TimestampedRecord } from '../../platform/database/timestamped.record.js';
import { sqlList } from '../../platform/database/sql-list.js';
import type { UserRecord } from '../users/user.record.js';
import { GROUP_ROLES, type GroupRole } from '../auth/group-role.js';
import { GroupRecord } from './group.record.js';

@Entity('group_memberships')
@Unique(['groupId', 'userId'])
@Check(`"role" IN (${sqlList(GROUP_ROLES)})`)
export class GroupMembershipRecord extends TimestampedRecord {
  @Column('uuid')
  groupId: string;

  @ManyToOne(() => GroupRecord, { onDelete: 'CASCADE' })
  @JoinColumn()
  group?: Relation<GroupRecord>;

  @Index()
  @Column('uuid')
  userId: string;

  @ManyToOne('UserRecord', { onDelete: 'CASCADE' })
  @JoinColumn()
  user?: Relation<UserRecord>;

  @Column({ type: 'varchar', length: 16, default: 'user' })
  role: GroupRole;
}
