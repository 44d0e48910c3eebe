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
import type { UserRecord } from '../../identity/users/user.record.js';

/**
 * An `Idempotency-Key` a user sent with a creating request, holding the response that a repeat
 * within 24 hours gets again: written by the transaction of the change it answers. A row without
 * a response is a reservation made by an earlier release of Trove while its request ran.
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

  /** The request holding an earlier release's reservation; null in rows written with a response. */
  @Column({ type: 'uuid', nullable: true })
  reservation: string | null;

  @Column({ type: 'smallint', nullable: true })
  responseStatus: number | null;

  /** The response headers sent again with it (`ETag`), by name. */
  @Column({ type: 'jsonb', nullable: true })
  responseHeaders: Record<string, string> | null;

  /** The response body exactly as it was sent (JSON text). */
  @Column({ type: 'text', nullable: true })
  responseBody: string | null;

  @Index()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
