import {
  Check,
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  type Relation,
} from 'typeorm';
import { sqlList } from '../../platform/database/sql-list.js';
import type { GroupRecord } from '../../identity/groups/group.record.js';

export const HISTORY_ACTIONS = ['create', 'update', 'delete'] as const;
export type HistoryAction = (typeof HISTORY_ACTIONS)[number];

export const ACTOR_TYPES = ['user', 'sso', 'apiKey', 'system'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

/** Who made a change, as resolved when it was made. */
export interface StoredActor {
  type: ActorType;
  id: string | null;
  name: string | null;
  apiKey: { id: string; name: string } | null;
  issuer: string | null;
}

/**
 * One entity's changes in one transaction: written only by the database's history triggers
 * (migration 1795220460000), read here. `changes` maps each changed field (`name`, `tagIds`,
 * `fields.<name>`, `attachments.<id>`, …) to `{before, after}`.
 */
@Entity('entity_history')
@Check(`"action" IN (${sqlList(HISTORY_ACTIONS)})`)
@Index(['transactionId', 'entityId'], { unique: true })
@Index(['entityId', 'seq'])
@Index(['groupId', 'seq'])
@Index(['groupId', 'actorId', 'seq'])
@Index(['changedAt'])
export class EntityHistoryRecord {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'bigint', generated: 'identity', generatedIdentity: 'ALWAYS' })
  seq: string;

  @Column('uuid')
  groupId: string;

  @ManyToOne('GroupRecord', { onDelete: 'CASCADE' })
  @JoinColumn()
  group?: Relation<GroupRecord>;

  /** Not a foreign key: the history outlives the entity. */
  @Column('uuid')
  entityId: string;

  @Column({ type: 'varchar', length: 255 })
  entityName: string;

  @Column('bigint')
  transactionId: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  changedAt: Date;

  @Column({ type: 'uuid', nullable: true })
  actorId: string | null;

  @Column('jsonb')
  actor: StoredActor;

  @Column({ type: 'varchar', length: 255 })
  operation: string;

  @Column({ type: 'varchar', length: 16 })
  action: HistoryAction;

  @Column('jsonb')
  changes: Record<string, { before: unknown; after: unknown }>;
}
