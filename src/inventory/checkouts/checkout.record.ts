import { Check, Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { TimestampedRecord } from '../../platform/database/timestamped.record.js';
import type { EntityRecord } from '../entities/core/entity.record.js';
import type { GroupRecord } from '../../identity/groups/group.record.js';
import type { UserRecord } from '../../identity/users/user.record.js';

/**
 * Some of an entity's quantity lent out: to a member of the group or to a named outside
 * borrower, returned in one or more parts. The API asks for exactly one of member and borrower;
 * the table allows neither, which is what a check-out to a member whose account was deleted
 * becomes.
 */
@Entity('checkouts')
@Index(['groupId', 'returnedAt', 'dueOn'])
@Index(['entityId', 'createdAt'])
// Partial, made by the CreateCheckouts migration; the schema builder leaves it be.
@Index('checkouts_overdue_idx', { synchronize: false })
@Check('checkouts_quantity_check', `"quantity" > 0`)
@Check('checkouts_returned_quantity_check', `"returned_quantity" BETWEEN 0 AND "quantity"`)
@Check('checkouts_borrower_check', `num_nonnulls("member_id", "borrower") <= 1`)
export class CheckoutRecord extends TimestampedRecord {
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

  @Column({ type: 'integer' })
  quantity: number;

  @Column({ type: 'integer', default: 0 })
  returnedQuantity: number;

  /** The member it is lent to; null for an outside borrower, or once that user is deleted. */
  @Index()
  @Column({ type: 'uuid', nullable: true })
  memberId: string | null;

  @ManyToOne('UserRecord', { onDelete: 'SET NULL' })
  @JoinColumn()
  member?: Relation<UserRecord> | null;

  /** The outside borrower's name; null when lent to a member. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  borrower: string | null;

  @Column({ type: 'date', nullable: true })
  dueOn: string | null;

  @Column({ type: 'varchar', length: 1000, default: '' })
  notes: string;

  /** Who recorded it; null once that user is deleted. */
  @Index()
  @Column({ type: 'uuid', name: 'checked_out_by', nullable: true })
  checkedOutBy: string | null;

  @ManyToOne('UserRecord', { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'checked_out_by' })
  checkedOutByUser?: Relation<UserRecord> | null;

  /** When the last of it came back; null while any is out. */
  @Column({ type: 'timestamptz', nullable: true })
  returnedAt: Date | null;
}
