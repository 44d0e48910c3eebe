import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { UserScope } from '../auth/decorators/user-scope.decorator.js';
import { InstanceAdminGuard } from './instance-admin.guard.js';

export const INSTANCE_ADMIN_KEY = 'trove:instanceAdmin';

/**
 * A route for instance administrators only, whatever their role in a group (or with none):
 * others signed in get 403.
 */
export const InstanceAdminOnly = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    UserScope(),
    SetMetadata(INSTANCE_ADMIN_KEY, true),
    UseGuards(InstanceAdminGuard),
  );
