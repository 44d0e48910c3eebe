import { Column, Entity, Index, JoinColumn, OneToOne, PrimaryColumn, type Relation } from 'typeorm';
import type { UserRecord } from '../users/user.record.js';

/**
 * What an identity provider's SCIM client says about a user beyond Trove's own fields: the
 * `userName` it knows them by, its `externalId` and the parts of the name. A provisioned user without this row is known
 * by their e-mail address and has no externalId.
 */
@Entity('scim_identities')
export class ScimIdentityRecord {
  @PrimaryColumn('uuid')
  userId: string;

  @OneToOne('UserRecord', { onDelete: 'CASCADE' })
  @JoinColumn()
  user?: Relation<UserRecord>;

  /** As the provider sent it. */
  @Column({ type: 'varchar', length: 255 })
  userName: string;

  /** `userName` trimmed and lower-cased: SCIM compares user names without regard to case. */
  @Column({ type: 'varchar', length: 255, unique: true })
  userNameKey: string;

  @Index()
  @Column({ type: 'varchar', length: 255, nullable: true })
  externalId: string | null;

  /** The parts of the name as the provider sent them (`name.givenName`…), if it did. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  givenName: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  middleName: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  familyName: string | null;
}
