/** A member's role in a group: owners manage it, users edit its inventory, viewers only read. */
export const GROUP_ROLES = ['owner', 'user', 'viewer'] as const;
export type GroupRole = (typeof GROUP_ROLES)[number];
