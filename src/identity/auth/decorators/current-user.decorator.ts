import { createParamDecorator, ForbiddenException, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { AuthIdentity, AuthUser } from '../auth-user.js';

const identityOf = (context: ExecutionContext): AuthIdentity =>
  context.switchToHttp().getRequest<Request & { user: AuthIdentity }>().user;

/** The caller acting in their group (group-scoped routes). */
export const CurrentUser = createParamDecorator((_data: unknown, context: ExecutionContext) => {
  const identity = identityOf(context);
  if (!identity.tenant) throw new ForbiddenException('you are not a member of any group');
  const user: AuthUser = {
    ...identity,
    groupId: identity.tenant.groupId,
    role: identity.tenant.role,
  };
  return user;
});

/** The caller, with or without a group (routes marked @UserScope()). */
export const CurrentIdentity = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuthIdentity => identityOf(context),
);
