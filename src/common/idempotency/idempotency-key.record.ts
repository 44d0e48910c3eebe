import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
} from 'typeorm';
import type { UserRecord } from '../../users/user.record.js';

/**
 * An `Idempotency-Key` a user sent with a creating request: reserved while the request runs
 * (`responseStatus` null), then holding the response that a repeat within 24 hours gets again.
 */
@Entity('idempotency_keys')
export class IdempotencyKeyRecord {
  @PrimaryColumn('uuid')
  userId: string;

  @ManyToOne('UserRecord', { onDelete: 'CASCADE' })
  @JoinColumn()
  user?: Relation<UserRecord>;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  key: string;

  /** SHA-256 (hex) of the method, path, tenant and body of the request that used the key. */
  @Column({ type: 'varchar', length: 64 })
  fingerprint: string;

  /** Identifies the request holding the reservation, so only it completes or releases it. */
  @Column('uuid')
  reservation: string;

  @Column({ type: 'smallint', nullable: true })
  responseStatus: number | null;

  /** The response body exactly as it was sent (JSON text). */
  @Column({ type: 'text', nullable: true })
  responseBody: string | null;

  @Index()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
