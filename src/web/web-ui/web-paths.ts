/**
 * Paths that belong to the API, its documentation and SCIM provisioning (`/scim/v2`): they keep
 * their own answers (a JSON 404 for an unknown route) whatever serves the rest of Trove's address.
 */
export function isApiPath(path: string): boolean {
  return (
    path === '/api' ||
    path.startsWith('/api/') ||
    path.startsWith('/swagger') ||
    path === '/scim' ||
    path.startsWith('/scim/')
  );
}
