import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.js';
import { DELETE_DEAD_INVITATIONS } from './auth.sql.js';
import { deletedCount } from './session.repository.js';

/**
 * The purge's delete of dead invitations. `group_invitation_tokens` belongs to the groups
 * module: this moves to GroupInvitationsService when that module has its repository.
 */
@Injectable()
export class ExpiredCredentialsRepository {
  constructor(private readonly db: Database) {}

  /** Deletes the invitations that expired or were used up; returns how many went. */
  async deleteDeadInvitations(): Promise<number> {
    return deletedCount(await this.db.query(DELETE_DEAD_INVITATIONS));
  }
}
