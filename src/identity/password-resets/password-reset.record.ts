import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  type Relation,
} from 'typeorm';
import type { UserRecord } from '../users/user.record.js';

/** A password reset link sent to a user; only the SHA-256 of its secret is kept. */
@Entity('password_resets')
export class PasswordResetRecord {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index()
  @Column('uuid')
  userId: string;

  @ManyToOne('UserRecord', { onDelete: 'CASCADE' })
  @JoinColumn()
  user?: Relation<UserRecord>;

  @Column({ type: 'bytea', unique: true })
  tokenHash: Buffer;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  /** When the link set a new password; a used link never works again. */
  @Column({ type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
