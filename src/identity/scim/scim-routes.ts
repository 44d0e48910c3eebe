/**
 * What SCIM's endpoint offers under `/scim/v2`, path by path (RFC 7644 §3.2), so that a request
 * no route takes is answered as SCIM says: a path Trove serves with another method is `405` with
 * `Allow`, an endpoint of the protocol Trove does not offer (bulk, `/Me`, a search across every
 * resource type) is `501`, anything else `404`.
 */
const SERVED: { path: RegExp; methods: readonly string[] }[] = [
  { path: /^\/ServiceProviderConfig$/, methods: ['GET'] },
  { path: /^\/ResourceTypes(\/[^/]+)?$/, methods: ['GET'] },
  { path: /^\/Schemas(\/[^/]+)?$/, methods: ['GET'] },
  { path: /^\/Users$/, methods: ['GET', 'POST'] },
  { path: /^\/Users\/\.search$/, methods: ['POST'] },
  { path: /^\/Users\/[^/]+$/, methods: ['GET', 'PUT', 'PATCH', 'DELETE'] },
  { path: /^\/Groups$/, methods: ['GET', 'POST'] },
  { path: /^\/Groups\/\.search$/, methods: ['POST'] },
  { path: /^\/Groups\/[^/]+$/, methods: ['GET', 'PUT', 'PATCH', 'DELETE'] },
];

/** Endpoints of RFC 7644 that Trove does not offer, with the section that describes each. */
const NOT_OFFERED: { path: RegExp; what: string }[] = [
  { path: /^\/Bulk$/, what: 'bulk operations (RFC 7644 §3.7) are not supported' },
  { path: /^\/Me(\/.*)?$/, what: 'the /Me endpoint (RFC 7644 §3.11) is not supported' },
  {
    path: /^\/\.search$/,
    what: 'searching every resource type at once (RFC 7644 §3.4.3) is not supported; POST /Users/.search or /Groups/.search',
  },
];

export interface ScimRouteProblem {
  status: 404 | 405 | 501;
  detail: string;
  /** The methods the path takes (a 405's `Allow`). */
  allow?: readonly string[];
}

/** Why no SCIM route took `method` on `path` (the part after `/scim/v2`, from its `/`). */
export function scimRouteProblem(method: string, path: string): ScimRouteProblem {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const missing = NOT_OFFERED.find((endpoint) => endpoint.path.test(trimmed));
  if (missing) return { status: 501, detail: missing.what };
  const served = SERVED.find((endpoint) => endpoint.path.test(trimmed));
  if (served && !served.methods.includes(method)) {
    return {
      status: 405,
      detail: `${method} is not supported on ${trimmed}; it takes ${served.methods.join(', ')}`,
      allow: served.methods,
    };
  }
  return { status: 404, detail: `no SCIM endpoint at ${trimmed === '' ? '/' : trimmed}` };
}
