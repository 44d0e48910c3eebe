import { RequestMethod, VersioningType, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { WsAdapter } from '@nestjs/platform-ws';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import cookieParser from 'cookie-parser';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { AppModule } from './app.module.js';
import { bodyDepthLimit, MAX_BODY_DEPTH } from './common/http/body-depth-limit.js';
import { securityHeaders } from './common/http/security-headers.js';
import { TroveExpressAdapter } from './common/http/trove-express-adapter.js';
import { PinoNestLogger } from './common/logging/logger.js';
import { requestLogging } from './common/logging/request-logging.js';
import type { TroveConfig } from './config/configuration.js';
import type { DatabaseServer } from './database/database-server.js';
import { CHANGE_FEED_PATH, MAX_SOCKETS_PER_USER } from './events/change-feed.gateway.js';
import { WebUi } from './web-ui/web-ui.js';
import { isScimRequest } from './scim/scim-body.interceptor.js';
import { SCIM_BASE_PATH } from './scim/scim.controller.js';
import { telemetry } from './telemetry/telemetry.js';

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
  // An ETag is sent where Trove knows the version of an answer (kept answers, files), not
  // computed by hashing every answer.
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
  app.setGlobalPrefix('api', {
    exclude: [
      { path: SWAGGER_PATH, method: RequestMethod.ALL },
      // SCIM is served where identity providers look for it: /scim/v2 (see ScimController).
      { path: `${SCIM_BASE_PATH}/{*path}`, method: RequestMethod.ALL },
    ],
  });
  app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' });
  SwaggerModule.setup(SWAGGER_PATH, app, () => buildOpenApiDocument(app, config), {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    yamlDocumentUrl: `${SWAGGER_PATH}/openapi.yaml`,
    customSiteTitle: 'Trove API',
    swaggerOptions: { persistAuthorization: true },
  });
}

/** The OpenAPI 3 document of the running code: operation ids are handler names. */
export function buildOpenApiDocument(app: INestApplication, config: TroveConfig): OpenAPIObject {
  const options = new DocumentBuilder()
    .setTitle('Trove')
    .setDescription(
      'Self-hosted inventory: entities (items and locations), entity types, templates, tags, ' +
        'custom fields, attachments, maintenance. Sign in with `POST /api/v1/users/login` and ' +
        'send the token as `Authorization: Bearer <token>`.\n\n' +
        `Request bodies may nest objects and arrays at most ${MAX_BODY_DEPTH} levels deep ` +
        '(400 otherwise). No text in a body, query or path parameter may contain a NUL ' +
        'character (`\\u0000`) or an unpaired surrogate (`\\ud800`): 422 naming the field for ' +
        'bodies, 400 naming the parameter otherwise.\n\n' +
        '**Change feed.** `GET /api/v1/ws/events` upgrades to a WebSocket; it is not listed ' +
        'below, and a request that does not ask to upgrade is answered 426. Authenticate ' +
        'as for any request (the `Authorization` header, the session cookie, `?access_token=`), ' +
        'or, from a browser, with the subprotocols `hb-auth, <token>` (session or attachment ' +
        'token; the answer selects `hb-auth`). The group is chosen by `X-Tenant` or `?tenant=` ' +
        'as elsewhere. A refused upgrade is answered 401, 403 (not a member of that group), 429 ' +
        `(more than ${MAX_SOCKETS_PER_USER} sockets of one user) or 503, with the usual error ` +
        'body. The server sends text frames `{"event":"entity.mutation"}`, `tag.mutation`, ' +
        '`user.mutation`, `export.mutation` or `import.mutation` once a change to the group ' +
        'commits, and `{"event":"ping"}` every `TROVE_WS_PING_INTERVAL` seconds (10); no frame ' +
        'carries data, so clients fetch ' +
        'what they show again. A socket is closed with 1008 once its session is revoked or its ' +
        'user leaves the group, and with 1001 when the server shuts down.\n\n' +
        '**In the browser.** Outside `/api` and `/swagger`, Trove serves the web UI of ' +
        '`TROVE_WEB_UI_DIR` (Homebox’s), or its own sign-in page at `/` and signed-in page at ' +
        '`/home`; those pages are not operations of this document.',
    )
    .setVersion(config.build.version)
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'TROVE_SCIM_TOKEN, for `/scim/v2` only' },
      'scim',
    )
    .build();
  return SwaggerModule.createDocument(app, options, {
    operationIdFactory: (_controllerKey, methodKey) => methodKey,
  });
}
