import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  type Relation,
  UpdateDateColumn,
} from 'typeorm';
import type { UserRecord } from '../users/user.record.js';

/**
 * A group an identity provider pushes over SCIM (RFC 7643 §4.2), kept as the provider sent it so
 * that it sees its own state. What it grants in Trove comes from TROVE_OIDC_ROLE_MAPPING, by its
 * display name; a group the mapping does not name grants nothing.
 */
@Entity('scim_groups')
export class ScimGroupRecord {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** As the provider sent it. */
  @Column({ type: 'varchar', length: 255 })
  displayName: string;

  /** `displayName` trimmed and lower-cased: one group per name, whatever its case. */
  @Column({ type: 'varchar', length: 255, unique: true })
  displayNameKey: string;

  @Index()
  @Column({ type: 'varchar', length: 255, nullable: true })
  externalId: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}

/** A user in a pushed group (a member of the group's `members`). */
@Entity('scim_group_members')
export class ScimGroupMemberRecord {
  @PrimaryColumn('uuid')
  groupId: string;

  @ManyToOne('ScimGroupRecord', { onDelete: 'CASCADE' })
  @JoinColumn()
  group?: Relation<ScimGroupRecord>;

  @Index()
  @PrimaryColumn('uuid')
  userId: string;

  @ManyToOne('UserRecord', { onDelete: 'CASCADE' })
  @JoinColumn()
  user?: Relation<UserRecord>;

  /** When the provider added them: members are listed in this order. */
  @CreateDateColumn({ type: 'timestamptz' })
  addedAt: Date;
}
