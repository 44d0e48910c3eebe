import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { loadConfig, type TroveConfig } from '../platform/config/configuration.js';
import { ConfigurationError } from '../platform/config/env.js';

const USAGE = 'usage: npm run reset-password -- --email=user@example.com';

/** Writes the message to stderr and ends the process with `code`. */
function fail(message: string, code = 1): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/** Only warnings and errors are logged, so stdout carries the link. */
const quiet = (level: string): string =>
  ['error', 'fatal', 'silent'].includes(level) ? level : 'warn';

/**
 * `npm run reset-password -- --email=<address>`: prints a password reset link for the user
 * with a local password at that address, valid for one hour, without sending mail. It uses the
 * configured database (DATABASE_URL, or the embedded one in TROVE_DATA_DIR, which Trove must not
 * be running on) and needs TROVE_OPTIONS_HOSTNAME. Exits 1 when no link can be made, 2 on bad
 * usage, 78 on a bad configuration.
 */
async function main(): Promise<void> {
  let email: string | undefined;
  try {
    email = parseArgs({ options: { email: { type: 'string' } } }).values.email?.trim();
  } catch (error) {
    fail(`${(error as Error).message}\n${USAGE}`, 2);
  }
  if (!email) fail(USAGE, 2);

  let config: TroveConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigurationError) fail(error.message, 78);
    throw error;
  }
  if (config.options.hostname.trim() === '') {
    fail('TROVE_OPTIONS_HOSTNAME is not set; reset links need the public base URL of Trove');
  }
  // This process queues no jobs and runs none.
  config = {
    ...config,
    log: { ...config.log, level: quiet(config.log.level) },
    jobs: { ...config.jobs, workersEnabled: false },
  };
  // The application is loaded only once the arguments and settings are known to be good.
  const [{ NestFactory }, { AppModule }, logging, { startDatabaseServer }, resets] =
    await Promise.all([
      import('@nestjs/core'),
      import('../app.module.js'),
      import('../platform/logging/logger.js'),
      import('../platform/database/database-server.js'),
      import('../identity/password-resets/password-resets.service.js'),
    ]);
  const logger = logging.createLogger(config.log);
  const database = await startDatabaseServer(config, (line) => logger.debug(line));
  try {
    const app = await NestFactory.createApplicationContext(
      AppModule.forRoot(config, database.url, database),
      { logger: new logging.PinoNestLogger(logger), abortOnError: false },
    );
    try {
      const link = await app.get(resets.PasswordResetsService).createLink(email);
      process.stdout.write(`${link}\n`);
    } catch (error) {
      if (!(error instanceof resets.ResetLinkRefused)) throw error;
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 1;
    } finally {
      await app.close();
    }
  } finally {
    await database.stop();
  }
}

await main();
