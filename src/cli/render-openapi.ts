import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { pino } from 'pino';
import { AppModule } from '../app.module.js';
import { configureApp } from '../app.factory.js';
import { buildOpenApiDocument } from '../openapi-document.js';
import { loadConfig } from '../platform/config/configuration.js';

/** Sorts object keys at every depth, so the committed document diffs cleanly. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/**
 * Builds the document from the application's modules without connecting to a database or
 * listening: `preview` mode instantiates no providers.
 */
export async function renderOpenApiDocument(): Promise<string> {
  const config = loadConfig({ TROVE_LOG_LEVEL: 'silent' });
  config.build.commit = '';
  config.build.buildTime = '';
  const logger = pino({ level: 'silent' });
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config, 'postgres://unused@127.0.0.1:1/unused'),
    { preview: true, logger: false, bodyParser: false },
  );
  configureApp(app, config, logger);
  await app.init();
  const document = buildOpenApiDocument(app, config);
  await app.close();
  return `${JSON.stringify(sortKeys(document), null, 2)}\n`;
}
