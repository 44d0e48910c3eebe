import { Column, Entity } from 'typeorm';
import { TimestampedRecord } from '../database/timestamped.record.js';

@Entity('groups')
export class GroupRecord extends TimestampedRecord {
  @Column({ type: 'varchar', length: 255 })
  name: string;

  /** ISO 4217 code, upper case. */
  @Column({ type: 'varchar', length: 3, default: 'USD' })
  currency: string;
}
