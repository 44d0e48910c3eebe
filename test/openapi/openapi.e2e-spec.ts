import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { renderOpenApiDocument } from '../../src/cli/render-openapi.js';

describe('OpenAPI document', () => {
  it('committed at openapi/openapi.json matches the code (run `npm run openapi` after API changes)', async () => {
    const committed = readFileSync('openapi/openapi.json', 'utf8');
    expect(await renderOpenApiDocument()).toEqual(committed);
  });
});

describe('Swagger UI and the served document', () => {
  const app = useTestApp();
  beforeAll(async () => {});

  it('serves Swagger UI at /swagger', async () => {
    const response = await app.trove.http.get('/swagger').expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.text).toContain('swagger-ui');
  });

  it('serves the OpenAPI 3 document with bearer auth and handler-named operations', async () => {
    const response = await app.trove.http.get('/swagger/openapi.json').expect(200);
    const document = response.body as {
      openapi: string;
      components: { securitySchemes: Record<string, { type: string; scheme: string }> };
      paths: Record<
        string,
        Record<string, { operationId: string; responses: Record<string, unknown> }>
      >;
    };
    expect(document.openapi).toMatch(/^3\./);
    expect(document.components.securitySchemes.bearer).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(document.paths['/api/v1/status'].get.operationId).toBe('getStatus');
    expect(Object.keys(document.paths['/api/v1/status'].get.responses)).toContain('200');
    expect(document.paths['/api/v1/health/ready'].get.responses).toHaveProperty('503');
  });
});
