import { RequestMethod, VersioningType, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import cookieParser from 'cookie-parser';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { AppModule } from './app.module.js';
import { bodyDepthLimit, MAX_BODY_DEPTH } from './common/http/body-depth-limit.js';
import { PinoNestLogger } from './common/logging/logger.js';
import { requestLogging } from './common/logging/request-logging.js';
import type { TroveConfig } from './config/configuration.js';
import type { DatabaseServer } from './database/database-server.js';

export const SWAGGER_PATH = 'swagger';
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
  app.disable('x-powered-by');
  if (config.web.trustProxy) app.set('trust proxy', true);
  app.use(requestLogging(logger));
  app.use(
    helmet({
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
  app.use(cookieParser());
  app.useBodyParser('json', { limit: config.web.jsonBodyLimitBytes });
  app.useBodyParser('urlencoded', { limit: config.web.jsonBodyLimitBytes, extended: false });
  app.use(bodyDepthLimit(MAX_BODY_DEPTH));
  app.setGlobalPrefix('api', {
    exclude: [{ path: SWAGGER_PATH, method: RequestMethod.ALL }],
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
        'bodies, 400 naming the parameter otherwise.',
    )
    .setVersion(config.build.version)
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    .build();
  return SwaggerModule.createDocument(app, options, {
    operationIdFactory: (_controllerKey, methodKey) => methodKey,
  });
}
