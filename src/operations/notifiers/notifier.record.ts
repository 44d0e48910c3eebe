import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { TimestampedRecord } from '../../platform/database/timestamped.record.js';
import type { GroupRecord } from '../../identity/groups/group.record.js';
import type { UserRecord } from '../../identity/users/user.record.js';

@Entity('notifiers')
@Index(['groupId', 'userId'])
export class NotifierRecord extends TimestampedRecord {
  @Column('uuid')
  groupId: string;

  @ManyToOne('GroupRecord', { onDelete: 'CASCADE' })
  @JoinColumn()
  group?: Relation<GroupRecord>;

  @Index()
  @Column('uuid')
  userId: string;

  @ManyToOne('UserRecord', { onDelete: 'CASCADE' })
  @JoinColumn()
  user?: Relation<UserRecord>;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  /**
   * The delivery URL (which embeds secrets), encrypted: see NotifierUrlCipher. Null only on a row
   * written before URLs were encrypted, until start-up encrypts its `urlPlaintext`.
   */
  @Column({ type: 'text', nullable: true })
  urlEncrypted: string | null;

  /** A URL stored in clear by an earlier version; encrypted and cleared at start-up. */
  @Column({ type: 'text', nullable: true })
  urlPlaintext: string | null;

  @Column({ type: 'boolean', default: true })
  isActive: boolean;

  /** When a delivery last succeeded. */
  @Column({ type: 'timestamptz', nullable: true })
  lastSuccessAt: Date | null;

  /** Why the last failed delivery failed. */
  @Column({ type: 'text', nullable: true })
  lastError: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastErrorAt: Date | null;
}
