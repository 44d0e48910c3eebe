import type { GroupRole } from '../auth/group-role.js';

const ROLE_RANK: Record<GroupRole, number> = { owner: 3, user: 2, viewer: 1 };

/** The higher of two roles (either may be missing). */
export function higherRole(
  a: GroupRole | undefined,
  b: GroupRole | undefined,
): GroupRole | undefined {
  if (!a) return b;
  if (!b) return a;
  return ROLE_RANK[b] > ROLE_RANK[a] ? b : a;
}

/**
 * The role in the shared group: the highest role mapped from any of the user's groups; `user`
 * when there is no mapping at all; undefined when a mapping exists but none of the groups is in it.
 */
export function sharedGroupRole(
  groups: readonly string[],
  mapping: Readonly<Record<string, GroupRole>>,
): GroupRole | undefined {
  if (Object.keys(mapping).length === 0) return 'user';
  let best: GroupRole | undefined;
  for (const group of groups) {
    if (Object.hasOwn(mapping, group)) best = higherRole(best, mapping[group]);
  }
  return best;
}
