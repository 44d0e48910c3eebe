import 'reflect-metadata';
import type * as AppFactory from '../src/app.factory.js';
import type * as Logging from '../src/platform/logging/logger.js';
import type * as Configuration from '../src/platform/config/configuration.js';
import type * as Embedded from '../src/platform/database/embedded-postgres.js';

/**
 * Trove's production build, which `npm run build` writes to dist/, loaded at run time so the
 * benchmark runs exactly the code `npm start` runs. The types come from the sources of that build.
 */
export interface TroveBuild {
  loadConfig: typeof Configuration.loadConfig;
  createLogger: typeof Logging.createLogger;
  createApp: typeof AppFactory.createApp;
  EmbeddedPostgres: typeof Embedded.EmbeddedPostgres;
}

export type TroveApp = Awaited<ReturnType<typeof AppFactory.createApp>>;
export type EmbeddedServer = Awaited<ReturnType<typeof Embedded.EmbeddedPostgres.start>>;

/** The project's dist/: this file runs as dist/bench/bench/trove.js. */
const DIST = new URL('../../', import.meta.url);

const load = <T>(file: string): Promise<T> => import(new URL(file, DIST).href) as Promise<T>;

export async function loadTroveBuild(): Promise<TroveBuild> {
  const [configuration, logging, factory, embedded] = await Promise.all([
    load<typeof Configuration>('platform/config/configuration.js'),
    load<typeof Logging>('platform/logging/logger.js'),
    load<typeof AppFactory>('app.factory.js'),
    load<typeof Embedded>('platform/database/embedded-postgres.js'),
  ]);
  return {
    loadConfig: configuration.loadConfig,
    createLogger: logging.createLogger,
    createApp: factory.createApp,
    EmbeddedPostgres: embedded.EmbeddedPostgres,
  };
}
