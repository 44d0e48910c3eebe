import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * Secrets every instance sharing the database must agree on (token signing key, API key
 * pepper), created once on first start.
 */
@Entity('server_secrets')
export class ServerSecretRecord {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  name: string;

  @Column({ type: 'bytea' })
  value: Buffer;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
