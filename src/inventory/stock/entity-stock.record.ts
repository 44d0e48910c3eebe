import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
  UpdateDateColumn,
} from 'typeorm';
import type { EntityRecord } from '../entities/core/entity.record.js';
import type { GroupRecord } from '../../identity/groups/group.record.js';

/**
 * The stock settings of an entity: a minimum quantity, how many to reorder, an expiry day and
 * notes. An entity without a row has none. `lowAlerted` is kept by database triggers (the
 * CreateEntityStock migration): true while the entity is at or below its minimum and that has
 * been alerted.
 */
@Entity('entity_stock')
@Check('entity_stock_min_quantity_check', `"min_quantity" >= 0`)
@Check('entity_stock_reorder_quantity_check', `"reorder_quantity" >= 0`)
export class EntityStockRecord {
  @PrimaryColumn('uuid')
  entityId: string;

  @ManyToOne('EntityRecord', { onDelete: 'CASCADE' })
  @JoinColumn()
  entity?: Relation<EntityRecord>;

  @Index()
  @Column('uuid')
  groupId: string;

  @ManyToOne('GroupRecord', { onDelete: 'CASCADE' })
  @JoinColumn()
  group?: Relation<GroupRecord>;

  @Column({ type: 'integer', nullable: true })
  minQuantity: number | null;

  @Column({ type: 'integer', nullable: true })
  reorderQuantity: number | null;

  @Index()
  @Column({ type: 'date', nullable: true })
  expiresOn: string | null;

  @Column({ type: 'varchar', length: 1000, default: '' })
  notes: string;

  @Column({ type: 'boolean', default: false })
  lowAlerted: boolean;

  /** The expiry day a daily reminder has announced; a new expiry day is announced again. */
  @Column({ type: 'date', nullable: true })
  expiryAnnouncedOn: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
