import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  type Relation,
} from 'typeorm';
import type { EntityRecord } from '../entities/core/entity.record.js';
import type { GroupRecord } from '../../identity/groups/group.record.js';

/**
 * A change of an entity's quantity made as a stock adjustment, with its reason: what it was, what
 * it became and why. Written once, never changed; the entity's history records it with the
 * quantity's change (`stock.adjustments.<id>`), attributed to who made it.
 */
@Entity('stock_adjustments')
@Index(['entityId', 'createdAt'])
export class StockAdjustmentRecord {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index()
  @Column('uuid')
  groupId: string;

  @ManyToOne('GroupRecord', { onDelete: 'CASCADE' })
  @JoinColumn()
  group?: Relation<GroupRecord>;

  @Column('uuid')
  entityId: string;

  @ManyToOne('EntityRecord', { onDelete: 'CASCADE' })
  @JoinColumn()
  entity?: Relation<EntityRecord>;

  @Column({ type: 'double precision' })
  quantityBefore: number;

  @Column({ type: 'double precision' })
  quantityAfter: number;

  @Column({ type: 'varchar', length: 500 })
  reason: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
