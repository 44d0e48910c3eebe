import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const LOADER = path.join(ROOT, 'test', 'support', 'typescript-loader.mjs');

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `npm run <command> -- <args>` from the TypeScript sources (`src/cli/<command>.ts`, through
 * the loader the Trove process tests use), with only these variables. The commands compile the
 * application's sources as they load them: seconds a run.
 */
export function runCliCommand(
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<CommandResult> {
  const child = spawn(
    process.execPath,
    ['--import', LOADER, path.join(ROOT, 'src', 'cli', `${command}.ts`), ...args],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        // The AWS SDK's notice of its future Node.js versions is not the command's output.
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
