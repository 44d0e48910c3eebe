import type { TestApp } from '../support/test-app.js';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const ENTERPRISE_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const SEARCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';
export const SCIM_TYPE = 'application/scim+json; charset=utf-8';

/** A SCIM error body (RFC 7644 §3.12). */
export const scimError = (status: number, detail: string, scimType?: string) => ({
  schemas: [ERROR_SCHEMA],
  status: String(status),
  ...(scimType ? { scimType } : {}),
  detail,
});

/** A response's body read as JSON (SCIM's media type is not parsed by supertest). */
export const json = <T = Record<string, unknown>>(response: { text: string }): T =>
  JSON.parse(response.text) as T;

/** Requests to `/scim/v2` of `trove` as an identity provider's client sends them. */
export function scimClient(trove: TestApp, token: string) {
  return (method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, body?: unknown) => {
    const request = trove.http[method](`/scim/v2${path}`).set('Authorization', `Bearer ${token}`);
    return body === undefined
      ? request
      : request.set('Content-Type', 'application/scim+json').send(JSON.stringify(body));
  };
}

/** A PatchOp message of these operations. */
export const patchOp = (...Operations: unknown[]) => ({ schemas: [PATCH_SCHEMA], Operations });
