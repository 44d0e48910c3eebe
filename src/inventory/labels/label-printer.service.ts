import { execFile, type ExecFileException } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  BadGatewayException,
  Injectable,
  Logger,
  UnprocessableEntityException,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { fillFileName, PrintCommandSyntaxError, splitCommandLine } from './print-command.js';

export const PRINTING_NOT_CONFIGURED_MESSAGE = 'label printing is not configured';
/** How long a print command may run before it is killed. */
export const PRINT_TIMEOUT_MS = 30_000;
/** What is kept of a failing command's output for the log. */
const OUTPUT_LOG_LIMIT = 2000;

/**
 * Prints labels with `TROVE_LABEL_MAKER_PRINT_COMMAND`: the PNG goes to a file of its own in a
 * new temporary directory, the command runs without a shell (split into arguments, with
 * `{{.FileName}}` replaced by the file's path), and the directory is removed afterwards.
 */
@Injectable()
export class LabelPrinterService {
  private readonly logger = new Logger('LabelPrinter');

  constructor(private readonly config: ConfigService<TroveConfig, true>) {}

  private get command(): string {
    return this.config.get('labelMaker', { infer: true }).printCommand.trim();
  }

  /** 422 unless a print command is configured. */
  assertConfigured(): void {
    if (this.command === '')
      throw new UnprocessableEntityException(PRINTING_NOT_CONFIGURED_MESSAGE);
  }

  /** Runs the print command on the PNG; 502 naming the exit code or signal when it fails. */
  async print(png: Buffer): Promise<void> {
    this.assertConfigured();
    let args: string[];
    try {
      args = splitCommandLine(this.command);
    } catch (error) {
      if (error instanceof PrintCommandSyntaxError) {
        throw new BadGatewayException(
          `label printing failed: invalid print command (${error.message})`,
        );
      }
      throw error;
    }
    if (args.length === 0) throw new UnprocessableEntityException(PRINTING_NOT_CONFIGURED_MESSAGE);
    const directory = await mkdtemp(path.join(os.tmpdir(), 'trove-label-'));
    try {
      const file = path.join(directory, 'label.png');
      await writeFile(file, png, { mode: 0o600 });
      const [program, ...rest] = fillFileName(args, file);
      const failure = await run(program, rest);
      if (failure) {
        this.logger.warn(
          `print command ${JSON.stringify(program)} failed: ${failure.reason}; ` +
            `output: ${failure.output.slice(0, OUTPUT_LOG_LIMIT)}`,
        );
        throw new BadGatewayException(`label printing failed: ${failure.reason}`);
      }
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }
}

interface PrintFailure {
  reason: string;
  output: string;
}

/** Runs a program without a shell; resolves with why it failed, or undefined on exit code 0. */
function run(program: string, args: string[]): Promise<PrintFailure | undefined> {
  return new Promise((resolve) => {
    const child = execFile(
      program,
      args,
      { timeout: PRINT_TIMEOUT_MS, maxBuffer: 1024 * 1024, windowsHide: true },
      (error, stdout, stderr) => {
        if (!error) resolve(undefined);
        else resolve({ reason: failureReason(error), output: `${stderr}${stdout}`.trim() });
      },
    );
    // A command that reads standard input gets an empty one rather than waiting for the timeout.
    child.stdin?.end();
  });
}

function failureReason(error: ExecFileException): string {
  if (error.killed && error.signal) return `timed out after ${PRINT_TIMEOUT_MS / 1000} s`;
  if (typeof error.code === 'number') return `exit code ${error.code}`;
  if (error.signal) return `signal ${error.signal}`;
  if (error.code === 'ENOENT') return 'command not found';
  if (error.code === 'EACCES') return 'permission denied';
  return error.code ?? error.message;
}
