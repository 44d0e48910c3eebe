import { RequestMethod, VersioningType } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { WsAdapter } from '@nestjs/platform-ws';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import cookieParser from 'cookie-parser';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { AppModule } from './app.module.js';
import { bodyDepthLimit, MAX_BODY_DEPTH } from './platform/http/body-depth-limit.js';
import { onFirstUse } from './platform/runtime/on-first-use.js';
import { securityHeaders } from './platform/http/security-headers.js';
import { TroveExpressAdapter } from './platform/http/trove-express-adapter.js';
import { PinoNestLogger } from './platform/logging/logger.js';
import { requestLogging } from './platform/logging/request-logging.js';
import type { TroveConfig } from './platform/config/configuration.js';
import type { DatabaseServer } from './platform/database/database-server.js';
import { changeContext, removeUnmountedClsEnhancers } from './platform/http/change-context.js';
import { CHANGE_FEED_PATH } from './web/change-feed/change-feed.gateway.js';
import { WebUi } from './web/web-ui/web-ui.js';
import { pageHeaders } from './web/pages/page-headers.js';
import { PAGE_ROUTE_EXCLUSIONS } from './web/pages/page-paths.js';
import { isScimRequest } from './identity/scim/scim-body.interceptor.js';
import { SCIM_BASE_PATH } from './identity/scim/scim.controller.js';
import { telemetry } from './platform/telemetry/telemetry.js';

export const SWAGGER_PATH = 'swagger';
export const UPGRADE_REQUIRED_MESSAGE = 'this endpoint only accepts a WebSocket upgrade';
export const OPENAPI_JSON_PATH = `${SWAGGER_PATH}/openapi.json`;

/** Creates the application exactly as it runs in production; `main.ts` and the tests share it. */
export async function createApp(
  config: TroveConfig,
  databaseUrl: string,
  logger: Logger,
  databaseServer?: DatabaseServer,
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config, databaseUrl, databaseServer),
    new TroveExpressAdapter(),
    { bodyParser: false, logger: new PinoNestLogger(logger), abortOnError: false },
  );
  removeUnmountedClsEnhancers(app);
  configureApp(app, config, logger);
  return app;
}

/** Everything about the HTTP surface that is not a module: prefix, parsers, headers, Swagger. */
export function configureApp(
  app: NestExpressApplication,
  config: TroveConfig,
  logger: Logger,
): void {
  // WebSocket upgrades (the change feed) go to `ws` on the same HTTP server.
  app.useWebSocketAdapter(new WsAdapter(app));
  app.disable('x-powered-by');
  // An ETag is sent where Trove knows the version of a response (the response cache, files), not
  // computed by hashing every response.
  app.set('etag', false);
  if (config.web.trustProxy) app.set('trust proxy', true);
  // Request duration by route template and requests in flight, when metrics are collected.
  const measure = telemetry().httpMiddleware;
  if (measure) app.use(measure);
  app.use(requestLogging(logger));
  app.use(
    securityHeaders({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          connectSrc: ["'self'"],
          frameAncestors: ["'none'"],
          upgradeInsecureRequests: null,
        },
      },
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: 'no-referrer' },
      strictTransportSecurity: false,
      frameguard: { action: 'deny' },
    }),
  );
  // The change feed answers only WebSocket upgrades (they never reach Express).
  app.use(CHANGE_FEED_PATH, (request: Request, response: Response, next: NextFunction) => {
    if (request.path !== '/') return next();
    response.status(426).set('Upgrade', 'websocket').json({ error: UPGRADE_REQUIRED_MESSAGE });
  });
  app.use(cookieParser());
  app.useBodyParser('json', {
    limit: config.web.jsonBodyLimitBytes,
    // SCIM reads its own bodies, so that it answers a bad one as SCIM answers errors.
    type: (request) =>
      !isScimRequest(request) && Boolean((request as Request).is('application/json')),
  });
  app.useBodyParser('urlencoded', { limit: config.web.jsonBodyLimitBytes, extended: false });
  app.use(bodyDepthLimit(MAX_BODY_DEPTH));
  // Outside /api and /swagger: the web UI directory's app, or Trove's own pages.
  app.use(app.get(WebUi).middleware());
  // Trove's own pages (web/pages/, web/console/) take their own headers and are never cached.
  app.use(pageHeaders());
  // After the parsers, whose callbacks would run outside it: the context of a request that may
  // change data, which its units of work are attributed to.
  app.use(changeContext());
  app.setGlobalPrefix('api', {
    exclude: [
      { path: SWAGGER_PATH, method: RequestMethod.ALL },
      // Trove's own pages live at their own paths.
      ...PAGE_ROUTE_EXCLUSIONS.map((path) => ({ path, method: RequestMethod.ALL })),
      // SCIM is served where identity providers look for it: /scim/v2 (see ScimController).
      { path: `${SCIM_BASE_PATH}/{*path}`, method: RequestMethod.ALL },
    ],
  });
  app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' });
  // The document, and the code that builds it, wait for the first request for it (docs/loading.md):
  // Swagger's placeholder is replaced on every request by the document built once.
  const openApiDocument = onFirstUse(async () =>
    (await import('./openapi-document.js')).buildOpenApiDocument(app, config),
  );
  SwaggerModule.setup(SWAGGER_PATH, app, () => ({}) as OpenAPIObject, {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    yamlDocumentUrl: `${SWAGGER_PATH}/openapi.yaml`,
    customSiteTitle: 'Trove API',
    swaggerOptions: { persistAuthorization: true },
    patchDocumentOnRequest: () => openApiDocument(),
  });
}
