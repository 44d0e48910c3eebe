import { Column, Entity, Index, JoinColumn, ManyToOne, OneToMany, type Relation } from 'typeorm';
import { TimestampedRecord } from '../../platform/database/timestamped.record.js';
import type { UserRecord } from '../users/user.record.js';
import { AuthRoleRecord } from './auth-role.record.js';

/**
 * A sign-in session or the attachment token issued with it; only the SHA-256 of its secret is
 * kept, so deleting the row revokes it (and a session's row takes its attachment token along).
 */
@Entity('auth_tokens')
export class AuthTokenRecord extends TimestampedRecord {
  @Index()
  @Column('uuid')
  userId: string;

  @ManyToOne('UserRecord', { onDelete: 'CASCADE' })
  @JoinColumn()
  user?: Relation<UserRecord>;

  @Column({ type: 'bytea', unique: true })
  tokenHash: Buffer;

  @Index()
  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  /** Issued by a single sign-on (OIDC) sign-in, or the refresh of such a session. */
  @Column({ type: 'boolean', default: false })
  singleSignOn: boolean;

  /**
   * The provider's session (`sid` of the ID token) a single sign-on session was created in, so
   * that the provider's back-channel logout of that session ends it; null otherwise.
   */
  @Index()
  @Column({ type: 'text', nullable: true })
  providerSessionId: string | null;

  /**
   * The session an attachment token was issued with, whose end (deleting its row) ends the
   * attachment token too; null for a session.
   */
  @Index()
  @Column({ type: 'uuid', nullable: true })
  sessionId: string | null;

  @ManyToOne(() => AuthTokenRecord, { onDelete: 'CASCADE' })
  @JoinColumn()
  session?: Relation<AuthTokenRecord>;

  @OneToMany(() => AuthRoleRecord, (role) => role.token)
  roles?: Relation<AuthRoleRecord>[];
}
