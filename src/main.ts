import 'reflect-metadata';
import { loadConfig, type TroveConfig } from './platform/config/configuration.js';
import { ConfigurationError } from './platform/config/env.js';

/**
 * Start-up: the configuration first; then OpenTelemetry, only when switched on, loaded before any
 * module it instruments (`http`, `pg`, `undici`) is; then Trove itself (`trove.ts`). Switched
 * off, no OpenTelemetry module is loaded at all.
 */
async function main(): Promise<void> {
  const startedAt = performance.now();
  let config: TroveConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigurationError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
  let stopTelemetry = (): Promise<void> => Promise.resolve();
  if (config.telemetry.enabled || config.telemetry.metrics) {
    const { startTelemetry } = await import('./platform/telemetry/open-telemetry.js');
    const running = await startTelemetry(config.telemetry);
    stopTelemetry = () => running.shutdown();
  }
  const { runTrove } = await import('./trove.js');
  await runTrove(config, startedAt, stopTelemetry);
}

void main();
