/** Roles a stored token carries: full access, administration, or attachment downloads only. */
export const AUTH_ROLES = ['user', 'admin', 'attachments'] as const;
export type AuthRole = (typeof AUTH_ROLES)[number];
