import { ApplicationConfig } from '@nestjs/core';
import { describe, expect, it } from 'vitest';
import { InFlightHandlers } from '../../src/common/http/in-flight-handlers.js';
import { useTestApp } from '../support/api.js';

describe('InFlightHandlers in the app', () => {
  const app = useTestApp();

  it('is the outermost interceptor, so what other interceptors do is counted too', () => {
    const config = app.trove.app.get(ApplicationConfig);
    const interceptors = [
      ...config.getGlobalInterceptors(),
      ...config.getGlobalRequestInterceptors().map((wrapper) => wrapper.instance as unknown),
    ];
    expect(interceptors.length).toBeGreaterThan(1);
    expect(interceptors[0]).toBe(app.trove.app.get(InFlightHandlers));
  });

  it('counts nothing once every request has been answered', async () => {
    await app.trove.http.get('/api/v1/status').expect(200);
    expect(await app.trove.app.get(InFlightHandlers).settled(0)).toBe(0);
  });
});
