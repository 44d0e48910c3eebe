import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { requestMethod, routeTemplate } from './http-route.js';

const routed = (route: unknown, baseUrl = ''): IncomingMessage =>
  ({ route, baseUrl }) as unknown as IncomingMessage;

describe('routeTemplate', () => {
  it("writes Express's parameters as OpenAPI's", () => {
    expect(routeTemplate(routed({ path: '/api/v1/entities/:id' }))).toBe('/api/v1/entities/{id}');
    expect(routeTemplate(routed({ path: '/api/v1/entities/:id/attachments/:attachmentId' }))).toBe(
      '/api/v1/entities/{id}/attachments/{attachmentId}',
    );
    expect(routeTemplate(routed({ path: '/v2/Users/:id' }, '/scim'))).toBe('/scim/v2/Users/{id}');
  });

  it('is undefined when no route answered, never the path itself', () => {
    expect(routeTemplate(routed(undefined))).toBeUndefined();
    expect(routeTemplate(routed({ path: /regex/ }))).toBeUndefined();
    // A catch-all answers paths no route has (an unknown /api path's 404).
    expect(routeTemplate(routed({ path: '/api*path' }))).toBeUndefined();
    expect(routeTemplate(routed({ path: '/files/{*path}' }))).toBeUndefined();
  });
});

describe('requestMethod', () => {
  it('keeps the methods HTTP defines and names any other _OTHER', () => {
    const method = (name: string) => requestMethod({ method: name } as IncomingMessage);
    expect(['GET', 'PATCH', 'DELETE', 'OPTIONS'].map(method)).toEqual([
      'GET',
      'PATCH',
      'DELETE',
      'OPTIONS',
    ]);
    expect(['PROPFIND', 'get', 'BREW'].map(method)).toEqual(['_OTHER', '_OTHER', '_OTHER']);
  });
});
