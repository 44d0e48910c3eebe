import { Check, Column } from 'typeorm';
import { sqlList } from '../../../platform/database/sql-list.js';
import { TimestampedRecord } from '../../../platform/database/timestamped.record.js';
import { FIELD_TYPES, type FieldType } from './field-type.js';

/** The columns of a custom field (spec §2.4), on an entity or on a template alike. */
@Check(`"type" IN (${sqlList(FIELD_TYPES)})`)
export abstract class CustomFieldRecord extends TimestampedRecord {
  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 1000, default: '' })
  description: string;

  @Column({ type: 'varchar', length: 16 })
  type: FieldType;

  @Column({ type: 'varchar', length: 500, default: '' })
  textValue: string;

  /** Up to ±(2^53 − 1); PostgreSQL returns a bigint as a decimal string, which mappers convert. */
  @Column({ type: 'bigint', default: 0 })
  numberValue: string;

  @Column({ type: 'boolean', default: false })
  booleanValue: boolean;

  @Column({ type: 'timestamptz', nullable: true })
  timeValue: Date | null;

  /** Place among the fields of its entity or template: the index it was last sent at. */
  @Column({ type: 'integer', default: 0 })
  position: number;
}
