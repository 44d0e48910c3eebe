import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { CustomFieldRecord } from '../entities/core/custom-field.record.js';
import { TemplateRecord } from './template.record.js';

/** A custom field a template gives the entities made from it. */
@Entity('template_fields')
export class TemplateFieldRecord extends CustomFieldRecord {
  @Index()
  @Column('uuid')
  templateId: string;

  @ManyToOne(() => TemplateRecord, (template) => template.fields, { onDelete: 'CASCADE' })
  @JoinColumn()
  template?: Relation<TemplateRecord>;
}
