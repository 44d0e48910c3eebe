import { Column, Entity, Index, JoinColumn, ManyToOne, Unique, type Relation } from 'typeorm';
import { TimestampedRecord } from '../../platform/database/timestamped.record.js';
import type { GroupRecord } from '../groups/group.record.js';

@Entity('users')
@Unique(['oidcIssuer', 'oidcSubject'])
export class UserRecord extends TimestampedRecord {
  @Column({ type: 'varchar', length: 255 })
  name: string;

  /** Stored trimmed and lower-cased, so the unique constraint is case-insensitive. */
  @Column({ type: 'varchar', length: 255, unique: true })
  email: string;

  /** argon2id hash; null for users who only sign in through OIDC. */
  @Column({ type: 'text', nullable: true })
  passwordHash: string | null;

  @Column({ type: 'boolean', default: false })
  isSuperuser: boolean;

  @Column({ type: 'timestamptz', nullable: true })
  activatedOn: Date | null;

  @Index()
  @Column({ type: 'uuid', nullable: true })
  defaultGroupId: string | null;

  @ManyToOne('GroupRecord', { onDelete: 'SET NULL' })
  @JoinColumn()
  defaultGroup?: Relation<GroupRecord> | null;

  @Column({ type: 'text', nullable: true })
  oidcIssuer: string | null;

  @Column({ type: 'text', nullable: true })
  oidcSubject: string | null;

  /**
   * When the account was disabled (SCIM `active: false`): its credentials are refused and it
   * cannot sign in; its history stays attributed to it. Null while the account is enabled.
   */
  @Column({ type: 'timestamptz', nullable: true })
  disabledAt: Date | null;

  /** Client settings: an object with arbitrary keys, null before the first save. */
  @Column({ type: 'jsonb', nullable: true })
  settings: Record<string, unknown> | null;
}
