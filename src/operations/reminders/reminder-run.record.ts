import {
  CreateDateColumn,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
} from 'typeorm';
import type { GroupRecord } from '../../identity/groups/group.record.js';

/** A group's reminder of one day, sent: at most one a group a day, across all instances. */
@Entity('reminder_runs')
export class ReminderRunRecord {
  @PrimaryColumn('uuid')
  groupId: string;

  @ManyToOne('GroupRecord', { onDelete: 'CASCADE' })
  @JoinColumn()
  group?: Relation<GroupRecord>;

  /** The group's day (`YYYY-MM-DD`, in the reminder time zone). */
  @PrimaryColumn('date')
  day: string;

  @CreateDateColumn({ type: 'timestamptz' })
  sentAt: Date;
}
