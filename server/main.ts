import { isLoopbackHost, loadServerConfig } from '../config/serverConfig';
import { createServerRuntime } from './serverRuntime';

async function main(): Promise<void> {
  const config = loadServerConfig();
  if (!isLoopbackHost(config.host) && config.baseUrl.startsWith('http:')) {
    // Tokens and passwords would cross the network in clear text.
    console.warn(
      `Warning: listening on ${config.host} with BASE_URL ${config.baseUrl}. Put Hearth EMR behind HTTPS (a reverse proxy) before others use it.`,
    );
  }
  const where = config.databaseUrl ? 'native PostgreSQL (DATABASE_URL)' : `embedded PostgreSQL in ${config.dataDir}`;
  console.log(`Hearth EMR: opening ${where}`);
  const runtime = await createServerRuntime(config, { log: (line) => console.log(line) });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`\n${signal}: shutting down…`);
    try {
      await runtime.close();
      console.log('Database closed. Bye.');
      process.exit(0);
    } catch (error) {
      console.error('Shutdown failed:', error);
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await runtime.app.listen({ port: config.port, host: config.host });
  const url = config.baseUrl;
  console.log('');
  console.log(`Hearth EMR is running at ${url}`);
  console.log(`  FHIR API: ${url}fhir/R4   health: ${url}healthcheck`);
  console.log(`  Super admin: ${runtime.admin.state.email}`);
  if (runtime.admin.generatedPassword) {
    console.log(
      `  Generated password (shown once, also saved to ${runtime.admin.passwordFile}): ${runtime.admin.generatedPassword}`,
    );
  } else if (!config.adminPassword) {
    console.log(`  Password: the one generated on first start (see ${config.dataDir}/admin-password.txt)`);
  }
  if (runtime.demo) {
    console.log(`  Demo Clinic: ${runtime.demo.patients} patients, ${runtime.demo.resources} resources`);
    for (const account of runtime.demo.accounts ?? []) console.log(`    ${account.email}  (${account.role})`);
    if (runtime.demo.generatedPassword) {
      console.log(
        `    Demo password (shown once, also saved to ${runtime.demo.passwordFile}): ${runtime.demo.generatedPassword}`,
      );
    } else if (!config.demoPassword) {
      console.log(`    Demo password: see ${config.dataDir}/demo-accounts.txt`);
    }
  }
  console.log('Press Ctrl-C to stop.');
}

main().catch((error: unknown) => {
  console.error('Hearth EMR failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
