import type { GroupRole } from './group-role.js';
import type { AuthRole } from './auth-role.js';

/** How the caller proved who they are. */
export type Credential =
  | { kind: 'session'; tokenId: string }
  | { kind: 'attachment'; tokenId: string }
  | { kind: 'apiKey'; keyId: string };

/** The caller's group for this request and their role in it. */
export interface Tenant {
  groupId: string;
  role: GroupRole;
}

/** An authenticated caller, whether or not they act in a group. */
export interface AuthIdentity {
  id: string;
  credential: Credential;
  tokenRoles: AuthRole[];
  /** Chosen by X-Tenant, then ?tenant=, then the default group; null when the user has no group. */
  tenant: Tenant | null;
}

/** An authenticated caller acting in a group: what every group-scoped service method takes. */
export interface AuthUser extends AuthIdentity {
  groupId: string;
  role: GroupRole;
}
