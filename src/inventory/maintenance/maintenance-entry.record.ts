import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { TimestampedRecord } from '../../platform/database/timestamped.record.js';
import type { EntityRecord } from '../entities/core/entity.record.js';

/** Scheduled or completed work on an entity. */
@Entity('maintenance_entries')
@Index(['entityId', 'scheduledDate'])
// Partial, made by the CreateReminderRuns migration; the schema builder leaves it be.
@Index('maintenance_entries_due_idx', { synchronize: false })
export class MaintenanceEntryRecord extends TimestampedRecord {
  @Column('uuid')
  entityId: string;

  @ManyToOne<EntityRecord>('EntityRecord', (entity) => entity.maintenanceEntries, {
    onDelete: 'CASCADE',
  })
  @JoinColumn()
  entity?: Relation<EntityRecord>;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 2500, default: '' })
  description: string;

  /** Completion date (`completedDate` on the wire). */
  @Column({ type: 'date', nullable: true })
  date: string | null;

  @Column({ type: 'date', nullable: true })
  scheduledDate: string | null;

  @Column({ type: 'numeric', default: 0 })
  cost: string;
}
