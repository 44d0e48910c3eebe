import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** Failed sign-ins counted per key (an account or a client address), kept in the database. */
@Entity('login_attempts')
export class LoginAttemptRecord {
  /** `account:<email>` or `address:<ip>`. */
  @PrimaryColumn({ type: 'varchar', length: 320 })
  key: string;

  @Column({ type: 'integer', default: 0 })
  failures: number;

  @Column({ type: 'timestamptz' })
  windowStartedAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  lockedUntil: Date | null;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
