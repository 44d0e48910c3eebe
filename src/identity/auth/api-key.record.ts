import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { TimestampedRecord } from '../../platform/database/timestamped.record.js';
import type { UserRecord } from '../users/user.record.js';

/** A long-lived key for scripts; only a keyed hash of the secret is kept. */
@Entity('api_keys')
export class ApiKeyRecord extends TimestampedRecord {
  @Index()
  @Column('uuid')
  userId: string;

  @ManyToOne('UserRecord', { onDelete: 'CASCADE' })
  @JoinColumn()
  user?: Relation<UserRecord>;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'bytea', unique: true })
  keyHash: Buffer;

  @Column({ type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;
}
