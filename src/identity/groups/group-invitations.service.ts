import { randomBytes } from 'node:crypto';
import { ConflictException, GoneException, Injectable, NotFoundException } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import type { AuthUser } from '../auth/auth-user.js';
import { ValidationFailedException } from '../../platform/errors/validation-failed.exception.js';
import { sha256 } from '../auth/sha256.js';
import type {
  CreateInvitationDto,
  GroupInvitationCreatedDto,
  GroupInvitationDto,
  InvitationRole,
} from './dto/group-invitation.dto.js';
import { GroupInvitationRepository } from './group-invitation.repository.js';
import type { GroupRole } from '../auth/group-role.js';
import type { GroupRecord } from './group.record.js';
import { toGroupDto } from './group.mapper.js';
import { GroupsService } from './groups.service.js';
import { notOwned } from '../../platform/database/owned.js';

const DEFAULT_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** What claiming an invitation gives: a place in its group with its role. */
export interface ClaimedInvitation {
  groupId: string;
  role: GroupRole;
}

/** Invitations to a group: a secret shown once, with an expiry, a use count and a role. */
@Injectable()
export class GroupInvitationsService {
  constructor(
    private readonly invitations: GroupInvitationRepository,
    private readonly groups: GroupsService,
  ) {}

  /** Deletes the invitations that expired or were used up; how many (the hourly purge). */
  deleteDead(): Promise<number> {
    return this.invitations.deleteDead();
  }

  /** The group's invitations that can still be used, newest first. */
  async list(user: AuthUser): Promise<GroupInvitationDto[]> {
    const invitations = await this.invitations.findUsable(user.groupId);
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
    const invitation = await this.invitations.insert({
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
    if (!(await this.invitations.delete(user.groupId, id))) {
      throw notOwned('invitation', id);
    }
  }

  /**
   * Uses up one use of an invitation in the caller's unit of work (or its own). The row is
   * locked, so concurrent claims never take more uses than there are.
   */
  @Transactional()
  async claim(token: string, userId?: string): Promise<ClaimedInvitation> {
    const invitation = await this.invitations.findByTokenHashForUpdate(sha256(token));
    if (!invitation) throw new NotFoundException('invitation not found');
    if (invitation.expiresAt.getTime() <= Date.now())
      throw new GoneException('invitation has expired');
    if (invitation.uses <= 0) throw new GoneException('invitation has no uses left');
    if (userId && (await this.groups.isMember(invitation.groupId, userId))) {
      throw new ConflictException('you are already a member of this group');
    }
    invitation.uses -= 1;
    await this.invitations.save(invitation);
    return { groupId: invitation.groupId, role: invitation.role };
  }
}
