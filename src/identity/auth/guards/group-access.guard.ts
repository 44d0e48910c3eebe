import {
  ForbiddenException,
  Injectable,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { GROUP_ROLES, type GroupRole } from '../group-role.js';
import type { AuthIdentity } from '../auth-user.js';
import { ALLOW_ATTACHMENT_TOKEN_KEY } from '../decorators/allow-attachment-token.decorator.js';
import { IS_PUBLIC_KEY } from '../decorators/public.decorator.js';
import { ROLES_KEY } from '../decorators/roles.decorator.js';
import { USER_SCOPE_KEY } from '../decorators/user-scope.decorator.js';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const WRITER_ROLES: GroupRole[] = ['owner', 'user'];

export const OWNER_ONLY_MESSAGE = 'only the owner of this collection can perform this action';
export const VIEWER_MESSAGE = 'viewers of this collection can only read';
export const NO_GROUP_MESSAGE = 'you are not a member of any group';

/** The roles a route admits: its @Roles(), else every member for reads and writers for writes. */
export function requiredRoles(method: string, declared: GroupRole[] | undefined): GroupRole[] {
  return declared ?? (READ_METHODS.has(method) ? [...GROUP_ROLES] : WRITER_ROLES);
}

/**
 * What an authenticated caller may do: attachment tokens only where a route allows them, and
 * on group routes the caller's role in the tenant group must be one the route admits. Viewers
 * can therefore never reach a write route, whatever module it is in.
 */
@Injectable()
export class GroupAccessGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, targets)) return true;
    const request = context.switchToHttp().getRequest<Request & { user: AuthIdentity }>();
    const identity = request.user;
    if (
      identity.credential.kind === 'attachment' &&
      !this.reflector.getAllAndOverride<boolean>(ALLOW_ATTACHMENT_TOKEN_KEY, targets)
    ) {
      throw new ForbiddenException('Forbidden');
    }
    if (this.reflector.getAllAndOverride<boolean>(USER_SCOPE_KEY, targets)) return true;
    if (!identity.tenant) throw new ForbiddenException(NO_GROUP_MESSAGE);
    const declared = this.reflector.getAllAndOverride<GroupRole[] | undefined>(ROLES_KEY, targets);
    const allowed = requiredRoles(request.method, declared);
    if (allowed.includes(identity.tenant.role)) return true;
    throw new ForbiddenException(
      allowed.length === 1 && allowed[0] === 'owner' ? OWNER_ONLY_MESSAGE : VIEWER_MESSAGE,
    );
  }
}
