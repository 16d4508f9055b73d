import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { SearchParameter } from '@medplum/fhirtypes';
import type { ServerConfig } from '../config/serverConfig';
import { repositoryRoot } from '../config/repositoryRoot';
import { buildApp } from './app';
import { loadDefinitions } from './definitions/loadDefinitions';
import { loadDefinitionIndex } from './definitions/definitionIndex';
import { loadStructureValidators } from './validation/validatorStore';
import type { AuthEnvironment } from './auth/authEnvironment';
import { SigningKeys } from './auth/signingKeys';
import { CallerCache } from './auth/callerCache';
import { createEmailSender, defaultFromAddress } from './email/emailSender';
import { definitionsVersion, readDefinitionBundle } from './definitions/definitionFiles';
import { Repository } from './fhir/repository';
import { ServerAddress } from './fhir/serverAddress';
import { SearchParameterRegistry } from './search/searchParameterRegistry';
import { startSearchParameterSync } from './search/searchParameterSync';
import { bootstrapAdmin, type AdminBootstrapResult } from './seed/adminBootstrap';
import { seedDemo, type DemoState } from './seed/demoSeed';
import type { Database } from './storage/database';
import { openDatabase } from './storage/openDatabase';
import { ensurePrefixIndexStatistics } from './storage/prefixIndexStatistics';
import { BinaryStorage, loadUrlSigningKey, UrlSigner, type BinaryEnvironment } from './binary';
import { BotRunner, BotSubscriptions } from './bots';

export const serverVersion = '0.1.0';

export interface RuntimeOptions {
  /** Keep PGlite in memory instead of DATA_DIR (tests). */
  inMemory?: boolean;
  logger?: boolean;
  log?: (line: string) => void;
}

export interface ServerRuntime {
  app: FastifyInstance;
  db: Database;
  repository: Repository;
  registry: SearchParameterRegistry;
  admin: AdminBootstrapResult;
  demo?: DemoState;
  /** Stops accepting requests, waits for those under way, then closes the database. */
  close(): Promise<void>;
}

/** The search parameters of the definitions package (read from its files on each call). */
export function definitionSearchParameters(): SearchParameterRegistry {
  return new SearchParameterRegistry(
    ['search-parameters.json', 'search-parameters-medplum.json', 'search-parameters-uscore.json'].flatMap(
      (file) => readDefinitionBundle(file) as SearchParameter[],
    ),
  );
}

/** Opens the database, loads definitions, bootstraps the admin and seeds; the app is built but not listening. */
export async function createServerRuntime(config: ServerConfig, options: RuntimeOptions = {}): Promise<ServerRuntime> {
  const log = options.log ?? (() => undefined);
  // How long each start step took, logged once as one line (issue 20: a restart must be quick).
  const steps: string[] = [];
  let stepStarted = performance.now();
  const step = (name: string) => {
    const now = performance.now();
    steps.push(`${name} ${Math.round(now - stepStarted)} ms`);
    stepStarted = now;
  };
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: options.inMemory ? undefined : config.dataDir,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
  });
  try {
    step('database');
    const registry = definitionSearchParameters();
    // References to this server's own FHIR base are stored as `Type/id` (server/fhir/serverAddress.ts).
    const repository = new Repository(db, registry, { server: new ServerAddress(config.baseUrl, config.port) });
    step('search parameters');
    // On the first start of a definitions version the validators are generated in a worker thread
    // (seconds of CPU): it runs while the definitions load. Awaited below; the catch only keeps a
    // failure of an earlier step from also reporting this promise as unhandled.
    const structureValidators = loadStructureValidators(db);
    structureValidators.catch(() => undefined);
    const system = await loadDefinitions(repository, log);
    step('definitions');
    step(`definition index (${await loadDefinitionIndex(db)})`);
    step(`structure validators (${await structureValidators})`);
    step(`statistics (${await ensurePrefixIndexStatistics(db)})`);
    // Projects' own SearchParameters (saved in earlier runs, or by other processes from now on).
    const stopSearchParameterSync = await startSearchParameterSync(repository, db, registry, system.projectId);
    const admin = await bootstrapAdmin(repository, {
      email: config.adminEmail,
      password: config.adminPassword,
      dataDir: config.dataDir,
    });
    step('admin');
    const fhirBase = `${config.baseUrl}fhir/R4/`;
    const demo =
      config.seed === 'demo'
        ? await seedDemo(repository, registry, {
            fixturesDir: join(repositoryRoot, 'tests', 'fixtures', 'synthea'),
            fhirBase,
            baseUrl: config.baseUrl,
            log,
            admin: admin.state,
            password: config.demoPassword,
            dataDir: config.dataDir,
          })
        : undefined;
    step('seed');
    const keys = await SigningKeys.load(db, config.baseUrl);
    const callers = new CallerCache(db);
    callers.start(repository);
    const auth: AuthEnvironment = {
      repository,
      registry,
      keys,
      config,
      sharedProjectId: system.projectId,
      callers,
      email: createEmailSender({
        smtpUrl: config.smtpUrl,
        dataDir: config.dataDir,
        from: config.emailFrom ?? defaultFromAddress(config.baseUrl),
        log,
      }),
    };
    const binary: BinaryEnvironment = {
      storage: BinaryStorage.inDataDir(config.dataDir),
      signer: new UrlSigner(await loadUrlSigningKey(db), config.baseUrl),
      maxBytes: config.binaryMaxBytes,
    };
    const bots = new BotRunner({
      auth,
      storage: binary.storage,
      baseUrl: config.baseUrl,
      timeoutMs: config.botTimeoutMs,
      fetchAllowedHosts: config.botFetchAllowedHosts,
    });
    const app = await buildApp({
      db,
      registry,
      baseUrl: config.baseUrl,
      version: `${serverVersion} (definitions ${definitionsVersion})`,
      maxBodyBytes: config.maxBodyBytes,
      resourceLimits: config.resourceLimits,
      webRoot: config.webRoot ?? join(repositoryRoot, 'dist'),
      appFrameOrigins: config.appFrameOrigins,
      auth,
      binary,
      bots,
      logger: options.logger,
      realtimeHeartbeatMs: config.realtimeHeartbeatMs,
    });
    // Bots run for Subscriptions (rest-hook to Bot/{id}) after matching writes commit.
    const botSubscriptions = new BotSubscriptions(repository, bots);
    step('app');
    log(`Start steps: ${steps.join(', ')}`);
    // A first start parses ~90 MB of definition files. V8 kept that garbage until it next needed
    // room, so the idle process sat at 340 MB or at 690 MB by chance (issue 20: ≤ 350). One full
    // collection once started (`npm start` runs node with --expose-gc) leaves ~300 MB every time.
    (globalThis as { gc?: () => void }).gc?.();
    // The embedded database's own memory, apart from the process's (its WebAssembly memory only grows).
    if (db.memoryBytes) log(`Embedded database memory after start: ${megabytes(db.memoryBytes())} MB`);
    return {
      app,
      db,
      repository,
      registry,
      admin,
      demo,
      close: async () => {
        await botSubscriptions.stop();
        await app.close();
        await stopSearchParameterSync();
        callers.stop();
        await db.close();
      },
    };
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
}

function megabytes(bytes: number): string {
  return (bytes / 2 ** 20).toFixed(0);
}
