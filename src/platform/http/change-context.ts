import type { INestApplication } from '@nestjs/common';
import { ApplicationConfig, ModulesContainer } from '@nestjs/core';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ClsMiddleware } from 'nestjs-cls';

/** Methods that read: their requests make no change to attribute. */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Middleware that gives each request that may change data (any method but GET, HEAD and OPTIONS) a
 * context holding the request, so that the units of work it opens are attributed to its
 * authenticated caller and route (`currentAttribution` in `platform/database/change-attribution.ts`,
 * read when a unit of work opens, once authentication has run). A read passes straight through: it
 * has nothing to attribute, and a unit of work it opens (a snapshot of several statements) makes a
 * context of its own. Mounted after the body parsers (`configureApp`), whose callbacks would run
 * outside the context.
 */
export function changeContext(): RequestHandler {
  const context = new ClsMiddleware({ saveReq: true, resolveProxyProviders: false });
  return (request: Request, response: Response, next: NextFunction) => {
    if (READ_METHODS.has(request.method)) next();
    else void context.use(request, response, next);
  };
}

/** The global guard and interceptor nestjs-cls registers (`ClsRootModule`'s own providers). */
const CLS_ENHANCERS = /^APP_(GUARD|INTERCEPTOR) \(UUID: /;

/**
 * Takes out the global guard and interceptor that nestjs-cls registers whatever its options, which
 * do nothing unless its context is mounted as one of them: Trove mounts it as middleware
 * (`changeContext`). Without a global interceptor, a route with none of its own skips Nest's
 * interceptor chain (its Observables and async resources) on every request. To be called once
 * the app is created, before it is initialised (its routes then take the global enhancers).
 */
export function removeUnmountedClsEnhancers(app: INestApplication): void {
  const unmounted = new Set<unknown>();
  for (const module of app.get(ModulesContainer).values()) {
    if (module.metatype.name !== 'ClsRootModule') continue;
    for (const [token, wrapper] of module.providers) {
      if (typeof token === 'string' && CLS_ENHANCERS.test(token)) unmounted.add(wrapper.instance);
    }
  }
  if (unmounted.size !== 2) {
    throw new Error(
      `expected the global guard and interceptor of nestjs-cls, found ${unmounted.size}`,
    );
  }
  const config = app.get(ApplicationConfig);
  for (const enhancers of [config.getGlobalGuards(), config.getGlobalInterceptors()]) {
    for (let index = enhancers.length - 1; index >= 0; index -= 1) {
      if (unmounted.has(enhancers[index])) enhancers.splice(index, 1);
    }
  }
}
