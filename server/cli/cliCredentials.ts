import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { signIn } from './passwordSignIn';

/**
 * The bearer token of a command-line tool: HEARTH_TOKEN, or a password sign-in as HEARTH_EMAIL
 * (default ADMIN_EMAIL, admin@example.com) with HEARTH_PASSWORD (default ADMIN_PASSWORD, else the
 * generated password in DATA_DIR/admin-password.txt). Passwords are never taken from the command
 * line, where other users of the machine could read them.
 */
export async function cliToken(server: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  if (env.HEARTH_TOKEN) return env.HEARTH_TOKEN;
  const email = env.HEARTH_EMAIL ?? env.ADMIN_EMAIL ?? 'admin@example.com';
  let password = env.HEARTH_PASSWORD ?? env.ADMIN_PASSWORD;
  if (!password) {
    const file = join(resolve(env.DATA_DIR ?? './data'), 'admin-password.txt');
    if (existsSync(file)) password = readFileSync(file, 'utf8').split('\n')[1]?.trim();
  }
  if (!password) {
    throw new Error(
      'No credentials: set HEARTH_TOKEN, or HEARTH_EMAIL and HEARTH_PASSWORD (see README "Command-line tools")',
    );
  }
  return (await signIn(server, email, password, { project: env.HEARTH_PROJECT })).access_token;
}
