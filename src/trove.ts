import { routesOf } from './platform/telemetry/http-route.js';
import { telemetry } from './platform/telemetry/telemetry.js';
import { createApp } from './app.factory.js';
import { HttpDrain } from './platform/http/graceful-shutdown.js';
import { runningHandlers } from './platform/http/trove-express-adapter.js';
import { limitHeapGrowth } from './platform/runtime/heap-growth.js';
import { createLogger } from './platform/logging/logger.js';
import { ChangeFeedGateway } from './web/change-feed/change-feed.gateway.js';
import type { TroveConfig } from './platform/config/configuration.js';
import {
  exitWhenDatabaseLost,
  startDatabaseServer,
  type DatabaseServer,
} from './platform/database/database-server.js';

/** Beyond the HTTP drain: time for the app's hooks and the embedded database to stop. */
const STOP_AFTER_DRAIN_MS = 10_000;

/**
 * Runs Trove: the database, the application, and its graceful shutdown. Loaded by `main.ts`
 * once the configuration is read and telemetry (when switched on) has started.
 */
export async function runTrove(
  config: TroveConfig,
  startedAt: number,
  stopTelemetry: () => Promise<void>,
): Promise<void> {
  limitHeapGrowth(config.heapGrowthPercent);
  const logger = createLogger(config.log);
  const databaseLog = logger.child({ component: 'embedded-postgres' });

  let database: DatabaseServer | undefined;
  try {
    database = await startDatabaseServer(config, (line) => databaseLog.debug(line), {
      report: (level, message) => databaseLog[level](message),
    });
    exitWhenDatabaseLost(database, logger);
    logger.info(
      { embedded: database.embedded, dataDir: config.dataDir },
      database.embedded ? 'embedded PostgreSQL started' : 'using PostgreSQL from DATABASE_URL',
    );
    const app = await createApp(config, database.url, logger, database);
    const http = app.get(HttpDrain).watch(app.getHttpServer());
    if (config.web.host) await app.listen(config.web.port, config.web.host);
    else await app.listen(config.web.port);
    telemetry().declareRoutes(routesOf(app.getHttpAdapter().getInstance()));
    logger.info(
      {
        url: await app.getUrl(),
        swagger: `${await app.getUrl()}/swagger`,
        startupMs: Math.round(performance.now() - startedAt),
      },
      'Trove is listening',
    );

    let stopping = false;
    const shutdown = async (signal: NodeJS.Signals): Promise<void> => {
      if (stopping) return;
      stopping = true;
      const signalledAt = performance.now();
      const { shutdownDrainMs: windowMs, shutdownTimeoutMs: timeoutMs } = config.web;
      logger.info({ signal, windowMs }, 'shutting down: not ready, draining connections');
      const deadline = setTimeout(
        () => {
          logger.error('shutdown took too long; exiting');
          logger.flush();
          process.exit(1);
        },
        windowMs + timeoutMs + STOP_AFTER_DRAIN_MS,
      );
      deadline.unref();
      try {
        // Open change-feed sockets would keep the server from closing: they go first (1001).
        app.get(ChangeFeedGateway).closeAll();
        const { forced } = await http.drain({ windowMs, timeoutMs });
        // A request whose client went away before its answer still runs: its writes finish
        // before the database is closed.
        const left = Math.max(0, windowMs + timeoutMs - (performance.now() - signalledAt));
        const running = await runningHandlers(app).settled(left);
        const drainMs = Math.round(performance.now() - signalledAt);
        if (forced + running > 0) {
          logger.warn({ forced, running, drainMs }, 'cut off requests still running');
        } else logger.info({ drainMs }, 'every request answered; connections closed');
        await app.close();
        await database?.stop();
        logger.info({ shutdownMs: Math.round(performance.now() - signalledAt) }, 'stopped');
        await stopTelemetry();
        logger.flush();
        process.exit(0);
      } catch (error) {
        logger.error({ err: error }, 'error during shutdown');
        await database?.stop().catch(() => undefined);
        logger.flush();
        process.exit(1);
      }
    };
    process.on('SIGTERM', (signal) => void shutdown(signal));
    process.on('SIGINT', (signal) => void shutdown(signal));
  } catch (error) {
    logger.fatal({ err: error }, 'Trove could not start');
    await database?.stop().catch(() => undefined);
    logger.flush();
    process.exit(1);
  }
}
