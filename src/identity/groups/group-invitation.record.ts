import { Check, Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { TimestampedRecord } from '../../platform/database/timestamped.record.js';
import { sqlList } from '../../platform/database/sql-list.js';
import { GROUP_ROLES, type GroupRole } from '../auth/group-role.js';
import { GroupRecord } from './group.record.js';

/** An invitation to join a group; only the SHA-256 of its secret is kept. */
@Entity('group_invitation_tokens')
@Check(`"role" IN (${sqlList(GROUP_ROLES)})`)
export class GroupInvitationRecord extends TimestampedRecord {
  @Index()
  @Column('uuid')
  groupId: string;

  @ManyToOne(() => GroupRecord, { onDelete: 'CASCADE' })
  @JoinColumn()
  group?: Relation<GroupRecord>;

  @Column({ type: 'bytea', unique: true })
  tokenHash: Buffer;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'integer' })
  uses: number;

  /** Role given to whoever joins with this invitation. */
  @Column({ type: 'varchar', length: 16, default: 'user' })
  role: GroupRole;
}
