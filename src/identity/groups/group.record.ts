import { Column, Entity } from 'typeorm';
import { TimestampedRecord } from '../../platform/database/timestamped.record.js';

@Entity('groups')
export class GroupRecord extends TimestampedRecord {
  @Column({ type: 'varchar', length: 255 })
  name: string;

  /** ISO 4217 code, upper case. */
  @Column({ type: 'varchar', length: 3, default: 'USD' })
  currency: string;

  /**
   * Marks the group that OIDC sign-ins share (`TROVE_OIDC_SHARED_GROUP`): the first 40 hex
   * digits of that setting's SHA-256. Null for every other group, so a group that merely has the
   * same name is never taken for it.
   */
  @Column({ type: 'varchar', length: 40, nullable: true, unique: true })
  oidcSharedKey: string | null;
}
