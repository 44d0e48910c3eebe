import { RequestMethod, VERSION_NEUTRAL, type INestApplication } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, VERSION_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer } from '@nestjs/core';
import { INSTANCE_ADMIN_KEY } from '../../src/identity/admin/instance-admin.decorator.js';
import { ALLOW_ATTACHMENT_TOKEN_KEY } from '../../src/identity/auth/decorators/allow-attachment-token.decorator.js';
import { IS_PUBLIC_KEY } from '../../src/identity/auth/decorators/public.decorator.js';
import { ROLES_KEY } from '../../src/identity/auth/decorators/roles.decorator.js';
import { USER_SCOPE_KEY } from '../../src/identity/auth/decorators/user-scope.decorator.js';
import { requiredRoles } from '../../src/identity/auth/guards/group-access.guard.js';
import type { GroupRole } from '../../src/identity/auth/group-role.js';

export interface RouteDeclaration {
  method: string;
  path: string;
  handler: string;
  public: boolean;
  /** Acts on the caller's own account, without a group. */
  userScope: boolean;
  /** Group roles admitted (empty for public and user-scope routes). */
  roles: GroupRole[];
  attachmentToken: boolean;
  /** For instance administrators only (present only then). */
  instanceAdmin?: true;
}

const join = (...parts: string[]): string =>
  `/${parts
    .flatMap((part) => part.split('/'))
    .filter((part) => part !== '')
    .join('/')}`;

/** Every route of the running app with what its decorators declare, sorted by path and method. */
export function collectRoutes(app: INestApplication): RouteDeclaration[] {
  const routes: RouteDeclaration[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | null;
      if (!controller) continue;
      const base = Reflect.getMetadata(PATH_METADATA, controller) as string;
      // SCIM (where providers look for it) and Trove's pages are served outside the API's prefix
      // and version.
      const outsideApi = Reflect.getMetadata(VERSION_METADATA, controller) === VERSION_NEUTRAL;
      const prototype = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        // A getter is no handler (and reading it on the prototype would run it).
        const handler = Object.getOwnPropertyDescriptor(prototype, name)?.value as unknown;
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
        if (path === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
        const read = <T>(key: string): T | undefined =>
          (Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, controller)) as
            T | undefined;
        const isPublic = read<boolean>(IS_PUBLIC_KEY) === true;
        const userScope = read<boolean>(USER_SCOPE_KEY) === true;
        routes.push({
          method,
          path: outsideApi ? join(base, path) : join('api', 'v1', base, path),
          handler: `${controller.name}.${name}`,
          public: isPublic,
          userScope,
          roles: isPublic || userScope ? [] : requiredRoles(method, read<GroupRole[]>(ROLES_KEY)),
          attachmentToken: read<boolean>(ALLOW_ATTACHMENT_TOKEN_KEY) === true,
          ...(read<boolean>(INSTANCE_ADMIN_KEY) === true ? { instanceAdmin: true as const } : {}),
        });
      }
    }
  }
  return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

/** The path with every `:param` filled: UUIDs for ids, a plain word for anything else. */
export function fillPath(path: string, uuid: string): string {
  return path.replace(/:([A-Za-z_]+)/g, (_match, name: string) =>
    name === 'id' || name.endsWith('_id') || name.endsWith('Id') ? uuid : 'some-value',
  );
}
