import { SetMetadata } from '@nestjs/common';

export const USER_SCOPE_KEY = 'trove:userScope';

/**
 * A route that acts on the caller's own account rather than a group's data, so it works for a
 * user without any group and is open to viewers.
 */
export const UserScope = (): MethodDecorator & ClassDecorator => SetMetadata(USER_SCOPE_KEY, true);
