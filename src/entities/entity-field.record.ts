import { Check, Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { FIELD_TYPES, type FieldType } from '../common/field-type.js';
import { sqlList } from '../database/sql-list.js';
import { TimestampedRecord } from '../database/timestamped.record.js';
import { EntityRecord } from './entity.record.js';

/** A custom field on one entity. */
@Entity('entity_fields')
@Index(['name', 'textValue'])
@Index('entity_fields_text_value_trgm_idx', { synchronize: false })
@Check(`"type" IN (${sqlList(FIELD_TYPES)})`)
export class EntityFieldRecord extends TimestampedRecord {
  @Index()
  @Column('uuid')
  entityId: string;

  @ManyToOne(() => EntityRecord, (entity) => entity.fields, { onDelete: 'CASCADE' })
  @JoinColumn()
  entity?: Relation<EntityRecord>;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 1000, default: '' })
  description: string;

  @Column({ type: 'varchar', length: 16 })
  type: FieldType;

  @Column({ type: 'varchar', length: 500, default: '' })
  textValue: string;

  @Column({ type: 'integer', default: 0 })
  numberValue: number;

  @Column({ type: 'boolean', default: false })
  booleanValue: boolean;

  @Column({ type: 'timestamptz', nullable: true })
  timeValue: Date | null;
}
