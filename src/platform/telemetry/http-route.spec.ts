import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { routeTemplate, statusClass } from './http-route.js';

const routed = (route: unknown, baseUrl = ''): IncomingMessage =>
  ({ route, baseUrl }) as unknown as IncomingMessage;

describe('routeTemplate', () => {
  it("writes Express's parameters as OpenAPI's", () => {
    expect(routeTemplate(routed({ path: '/api/v1/entities/:id' }))).toBe('/api/v1/entities/{id}');
    expect(routeTemplate(routed({ path: '/api/v1/entities/:id/attachments/:attachmentId' }))).toBe(
      '/api/v1/entities/{id}/attachments/{attachmentId}',
    );
    expect(routeTemplate(routed({ path: '/v2/Users/:id' }, '/scim'))).toBe('/scim/v2/Users/{id}');
    expect(routeTemplate(routed({ path: '/files/{*path}' }))).toBe('/files/{path}');
  });

  it('is undefined when no route answered, never the path itself', () => {
    expect(routeTemplate(routed(undefined))).toBeUndefined();
    expect(routeTemplate(routed({ path: /regex/ }))).toBeUndefined();
  });
});

describe('statusClass', () => {
  it('names the hundred of a status', () => {
    expect(statusClass({ statusCode: 204 } as ServerResponse)).toBe('2xx');
    expect(statusClass({ statusCode: 503 } as ServerResponse)).toBe('5xx');
  });
});
