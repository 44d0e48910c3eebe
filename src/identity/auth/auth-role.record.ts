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
import { AUTH_ROLES, type AuthRole } from './auth-role.js';
import { AuthTokenRecord } from './auth-token.record.js';

@Entity('auth_roles')
@Check(`"role" IN (${sqlList(AUTH_ROLES)})`)
export class AuthRoleRecord {
  @PrimaryGeneratedColumn('increment')
  id: number;

  @Index()
  @Column('uuid')
  tokenId: string;

  @ManyToOne(() => AuthTokenRecord, (token) => token.roles, { onDelete: 'CASCADE' })
  @JoinColumn()
  token?: Relation<AuthTokenRecord>;

  @Column({ type: 'varchar', length: 16 })
  role: AuthRole;
}
