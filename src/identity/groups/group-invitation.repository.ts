import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database.js';
import { GroupInvitationRecord } from './group-invitation.record.js';

export type GroupInvitationValues = Pick<
  GroupInvitationRecord,
  'groupId' | 'tokenHash' | 'expiresAt' | 'uses' | 'role'
>;

/** The only code that reads or writes the `group_invitation_tokens` table. */
@Injectable()
export class GroupInvitationRepository {
  constructor(private readonly db: Database) {}

  /** Deletes the invitations (of every group) that expired or were used up; how many went. */
  async deleteDead(): Promise<number> {
    const result = await this.db
      .repository(GroupInvitationRecord)
      .createQueryBuilder()
      .delete()
      .where('expires_at <= now() OR uses <= 0')
      .execute();
    return result.affected ?? 0;
  }

  /** The group's invitations that can still be used, newest first, with their group. */
  findUsable(groupId: string): Promise<GroupInvitationRecord[]> {
    return this.db
      .repository(GroupInvitationRecord)
      .createQueryBuilder('i')
      .innerJoinAndSelect('i.group', 'g')
      .where('i.group_id = :groupId AND i.uses > 0 AND i.expires_at > now()', { groupId })
      .orderBy('i.created_at', 'DESC')
      .getMany();
  }

  /** The invitation with this token hash, locked until the unit of work ends. */
  findByTokenHashForUpdate(tokenHash: Buffer): Promise<GroupInvitationRecord | null> {
    if (!this.db.inTransaction) throw new Error('locking an invitation needs a unit of work');
    return this.db
      .repository(GroupInvitationRecord)
      .createQueryBuilder('i')
      .setLock('pessimistic_write')
      .where('i.token_hash = :hash', { hash: tokenHash })
      .getOne();
  }

  insert(values: GroupInvitationValues): Promise<GroupInvitationRecord> {
    return this.db.repository(GroupInvitationRecord).save(values);
  }

  save(invitation: GroupInvitationRecord): Promise<GroupInvitationRecord> {
    return this.db.repository(GroupInvitationRecord).save(invitation);
  }

  /** Whether an invitation of the group was there to delete. */
  async delete(groupId: string, id: string): Promise<boolean> {
    const result = await this.db.repository(GroupInvitationRecord).delete({ id, groupId });
    return Boolean(result.affected);
  }
}
