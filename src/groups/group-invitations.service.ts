import { randomBytes } from 'node:crypto';
import { ConflictException, GoneException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { AuthIdentity, AuthUser } from '../auth/auth-user.js';
import { ValidationFailedException } from '../common/errors/validation-failed.exception.js';
import { sha256 } from '../common/security/sha256.js';
import type {
  CreateInvitationDto,
  GroupInvitationCreatedDto,
  GroupInvitationDto,
  InvitationRole,
  JoinedGroupDto,
} from './dto/group-invitation.dto.js';
import { GroupInvitationRecord } from './group-invitation.record.js';
import { GroupRecord } from './group.record.js';
import { toGroupDto } from './group.mapper.js';
import { GroupsService } from './groups.service.js';

const DEFAULT_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** Invitations to a group: a secret shown once, with an expiry, a use count and a role. */
@Injectable()
export class GroupInvitationsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly groups: GroupsService,
  ) {}

  /** The group's invitations that can still be used, newest first. */
  async list(user: AuthUser): Promise<GroupInvitationDto[]> {
    const invitations = await this.dataSource
      .getRepository(GroupInvitationRecord)
      .createQueryBuilder('i')
      .innerJoinAndSelect('i.group', 'g')
      .where('i.group_id = :groupId AND i.uses > 0 AND i.expires_at > now()', {
        groupId: user.groupId,
      })
      .orderBy('i.created_at', 'DESC')
      .getMany();
    return invitations.map((invitation) => ({
      id: invitation.id,
      expiresAt: invitation.expiresAt.toISOString(),
      uses: invitation.uses,
      role: invitation.role as InvitationRole,
      group: toGroupDto(invitation.group as GroupRecord),
    }));
  }

  async create(user: AuthUser, dto: CreateInvitationDto): Promise<GroupInvitationCreatedDto> {
    const expiresAt = dto.expiresAt
      ? new Date(dto.expiresAt)
      : new Date(Date.now() + DEFAULT_LIFETIME_MS);
    if (expiresAt.getTime() <= Date.now()) {
      throw ValidationFailedException.forField('expiresAt', 'expiresAt must be in the future');
    }
    const token = randomBytes(18).toString('base64url');
    const invitation = await this.dataSource.getRepository(GroupInvitationRecord).save({
      groupId: user.groupId,
      tokenHash: sha256(token),
      expiresAt,
      uses: dto.uses,
      role: dto.role ?? 'user',
    });
    return {
      expiresAt: invitation.expiresAt.toISOString(),
      id: invitation.id,
      token,
      uses: invitation.uses,
    };
  }

  async remove(user: AuthUser, id: string): Promise<void> {
    const result = await this.dataSource
      .getRepository(GroupInvitationRecord)
      .delete({ id, groupId: user.groupId });
    if (!result.affected) throw new NotFoundException(`invitation ${id} not found`);
  }

  /** A signed-in user joins the invitation's group. */
  async accept(caller: AuthIdentity, token: string): Promise<JoinedGroupDto> {
    return this.dataSource.transaction(async (manager) => {
      const invitation = await this.claim(manager, token, caller.id);
      await this.groups.addMember(manager, invitation.groupId, caller.id, invitation.role);
      const group = await manager.findOneByOrFail(GroupRecord, { id: invitation.groupId });
      return { id: group.id, name: group.name };
    });
  }

  /**
   * Uses up one use of an invitation inside the caller's transaction. The row is locked, so
   * concurrent claims never take more uses than there are.
   */
  async claim(
    manager: EntityManager,
    token: string,
    userId?: string,
  ): Promise<GroupInvitationRecord> {
    const invitation = await manager
      .getRepository(GroupInvitationRecord)
      .createQueryBuilder('i')
      .setLock('pessimistic_write')
      .where('i.token_hash = :hash', { hash: sha256(token) })
      .getOne();
    if (!invitation) throw new NotFoundException('invitation not found');
    if (invitation.expiresAt.getTime() <= Date.now())
      throw new GoneException('invitation has expired');
    if (invitation.uses <= 0) throw new GoneException('invitation has no uses left');
    if (userId && (await this.groups.isMember(manager, invitation.groupId, userId))) {
      throw new ConflictException('you are already a member of this group');
    }
    invitation.uses -= 1;
    await manager.save(invitation);
    return invitation;
  }
}
