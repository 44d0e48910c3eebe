import type { LoggerService } from '@nestjs/common';
import { pino, type Logger } from 'pino';
import type { TroveConfig } from '../config/configuration.js';
import { telemetry } from '../telemetry/telemetry.js';

/**
 * The process's one structured logger: JSON lines, or readable lines with TROVE_LOG_FORMAT=text.
 * Created after telemetry has started (see main.ts).
 */
export function createLogger(log: TroveConfig['log']): Logger {
  const { tracing, exportLog } = telemetry();
  return pino({
    // With telemetry on, a line written inside a span carries its `trace_id` and `span_id`, and
    // each line written may also leave as an OTLP log record.
    ...(tracing ? { mixin: () => telemetry().logFields() } : {}),
    ...(exportLog
      ? {
          hooks: {
            streamWrite: (line: string) => {
              exportLog(line);
              return line;
            },
          },
        }
      : {}),
    level: log.level,
    base: { service: 'trove' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      censor: '[redacted]',
    },
    transport:
      log.format === 'text'
        ? { target: 'pino-pretty', options: { colorize: false, singleLine: true } }
        : undefined,
  });
}

/** Lets Nest's own messages (start-up, route mapping, errors) go through the same logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
  fatal(message: unknown, context?: string): void {
    this.logger.fatal({ context }, String(message));
  }
}
