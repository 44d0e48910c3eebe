import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { CustomFieldRecord } from './custom-field.record.js';
import { EntityRecord } from './entity.record.js';

/** A custom field on one entity. */
@Entity('entity_fields')
@Index(['name', 'textValue'])
@Index('entity_fields_text_value_trgm_idx', { synchronize: false })
export class EntityFieldRecord extends CustomFieldRecord {
  @Index()
  @Column('uuid')
  entityId: string;

  @ManyToOne(() => EntityRecord, (entity) => entity.fields, { onDelete: 'CASCADE' })
  @JoinColumn()
  entity?: Relation<EntityRecord>;
}
