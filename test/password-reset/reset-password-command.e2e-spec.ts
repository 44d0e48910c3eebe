import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, signUp, uniqueEmail } from '../support/factories.js';
import { runCliCommand } from '../support/cli-command.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { INVALID_LINK, PUBLIC_BASE, tokenOf } from './password-reset-helpers.js';

/** The command compiles the application's sources as it loads them: a few seconds a run. */
const COMMAND_TIMEOUT_MS = 90_000;

/** Runs `npm run reset-password -- <args>` with only these variables. */
const runCommand = (args: string[], env: Record<string, string>) =>
  runCliCommand('reset-password', args, env);

describe('npm run reset-password', () => {
  let trove: TestApp;
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    // The app has no mailer: the command needs none.
    trove = await createTestApp({ TROVE_OPTIONS_HOSTNAME: PUBLIC_BASE });
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'trove-reset-command-'));
    env = {
      DATABASE_URL: trove.database.url,
      TROVE_DATA_DIR: dataDir,
      TROVE_OPTIONS_HOSTNAME: PUBLIC_BASE,
    };
  });
  afterAll(async () => {
    await trove.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it(
    'prints a one-hour link that sets a new password once',
    async () => {
      const user = await signUp(trove, { password: 'old password 1' });
      const result = await runCommand([`--email=${user.email.toUpperCase()}`], env);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(
        /^https:\/\/trove\.example\.com\/reset-password\?token=[\w-]{43}\n$/,
      );
      const token = tokenOf(result.stdout.trim());

      const [row] = await trove.query<{ lifetime: number }>(
        `SELECT extract(epoch FROM expires_at - created_at)::float AS lifetime
         FROM password_resets WHERE user_id = $1`,
        [user.id],
      );
      expect(Math.round(row.lifetime)).toBe(3600);

      await trove.http
        .post('/api/v1/users/reset-password')
        .send({ token, password: 'new password 2' })
        .expect(204);
      await trove.http
        .get('/api/v1/users/self')
        .set('Authorization', user.authorization)
        .expect(401);
      await signIn(trove, user.email, 'new password 2');
      await trove.http
        .post('/api/v1/users/reset-password')
        .send({ token, password: 'new password 3' })
        .expect(400, INVALID_LINK);
    },
    COMMAND_TIMEOUT_MS,
  );

  it(
    'fails with a clear message for an address without a local user',
    async () => {
      const email = uniqueEmail('nobody');
      const result = await runCommand([`--email=${email}`], env);
      expect(result).toEqual({
        code: 1,
        stdout: '',
        stderr: `no user with a password has the address ${email}\n`,
      });
      expect(await trove.query('SELECT id FROM password_resets')).toHaveLength(1);
    },
    COMMAND_TIMEOUT_MS,
  );

  it(
    'fails without TROVE_OPTIONS_HOSTNAME or without --email',
    async () => {
      const user = await signUp(trove);
      expect(
        await runCommand([`--email=${user.email}`], { ...env, TROVE_OPTIONS_HOSTNAME: '' }),
      ).toEqual({
        code: 1,
        stdout: '',
        stderr:
          'TROVE_OPTIONS_HOSTNAME is not set; reset links need the public base URL of Trove\n',
      });
      expect(await runCommand([], env)).toEqual({
        code: 2,
        stdout: '',
        stderr: 'usage: npm run reset-password -- --email=user@example.com\n',
      });
      const unknownOption = await runCommand(['--mail=x@example.com'], env);
      expect(unknownOption.code).toBe(2);
      expect(unknownOption.stderr).toContain('usage: npm run reset-password -- --email=');
      expect(
        await trove.query('SELECT id FROM password_resets WHERE user_id = $1', [user.id]),
      ).toEqual([]);
    },
    COMMAND_TIMEOUT_MS,
  );
});
