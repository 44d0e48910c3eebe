import {
  ForbiddenException,
  Injectable,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import type { Request } from 'express';
import type { AuthIdentity } from '../auth/auth-user.js';
import { AdminService } from './admin.service.js';

export const INSTANCE_ADMIN_ONLY = 'only instance administrators can do this';

/**
 * Admits only instance administrators (TROVE_ADMIN_EMAILS, or Homebox's superuser flag that a
 * provider group sets at sign-in); anyone else signed in gets 403. Runs after the global guards,
 * so a signed-out caller has had their 401 already.
 */
@Injectable()
export class InstanceAdminGuard implements CanActivate {
  constructor(private readonly admin: AdminService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request & { user: AuthIdentity }>();
    if (await this.admin.isInstanceAdmin(request.user.id)) return true;
    throw new ForbiddenException(INSTANCE_ADMIN_ONLY);
  }
}
