import { Check, Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { FIELD_TYPES, type FieldType } from '../common/field-type.js';
import { sqlList } from '../database/sql-list.js';
import { TimestampedRecord } from '../database/timestamped.record.js';
import { TemplateRecord } from './template.record.js';

@Entity('template_fields')
@Check(`"type" IN (${sqlList(FIELD_TYPES)})`)
export class TemplateFieldRecord extends TimestampedRecord {
  @Index()
  @Column('uuid')
  templateId: string;

  @ManyToOne(() => TemplateRecord, (template) => template.fields, { onDelete: 'CASCADE' })
  @JoinColumn()
  template?: Relation<TemplateRecord>;

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
