import { SetMetadata } from '@nestjs/common';
import type { GroupRole } from '../group-role.js';

export const ROLES_KEY = 'trove:roles';

/**
 * The group roles allowed on a route. Without it, reads (GET, HEAD) are open to every member
 * and writes to owners and users, so viewers can only read.
 */
export const Roles = (...roles: GroupRole[]): MethodDecorator & ClassDecorator =>
  SetMetadata(ROLES_KEY, roles);
