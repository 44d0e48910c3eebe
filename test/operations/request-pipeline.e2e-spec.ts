import { ApplicationConfig } from '@nestjs/core';
import { describe, expect, it } from 'vitest';
import { AuthenticationGuard } from '../../src/identity/auth/guards/authentication.guard.js';
import { GroupAccessGuard } from '../../src/identity/auth/guards/group-access.guard.js';
import { useTestApp } from '../support/api.js';

describe('the request pipeline every route shares', () => {
  const app = useTestApp();

  it('has no global interceptor, and no global guard but authentication and group access', () => {
    const config = app.trove.app.get(ApplicationConfig);
    expect(config.getGlobalInterceptors()).toEqual([]);
    expect(config.getGlobalRequestInterceptors()).toEqual([]);
    expect(config.getGlobalGuards().map((guard) => guard.constructor)).toEqual([
      AuthenticationGuard,
      GroupAccessGuard,
    ]);
    expect(config.getGlobalRequestGuards()).toEqual([]);
  });
});
