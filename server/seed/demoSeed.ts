import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import type { Repository } from '../fhir/repository';
import { processBundle } from '../fhir/bundleProcessor';
import type { SearchParameterRegistry } from '../search/searchParameterRegistry';
import { readState, writeState } from '../storage/serverState';
import { systemAuthor } from '../definitions/loadDefinitions';
import type { AdminState } from './adminBootstrap';
import { seedDemoAccounts, type DemoAccount } from './demoAccounts';
import { seedDoseSpotBots } from './dosespotBots';
import { seedBundledQuestionnaires, seedDemoQuestionnaireTasks } from './bundledQuestionnaires';
import { seedDemoClinicalData } from './demoClinicalData';
import { seedLaunchCheckApp } from './launchCheckApp';

export interface DemoState {
  projectId: string;
  patients: number;
  resources: number;
  accounts?: DemoAccount[];
  /** The SMART launch check's ClientApplication id (given once; demo databases from before it get one). */
  launchCheckClientId?: string;
  /** Set only on the run that generated the demo password. */
  generatedPassword?: string;
  passwordFile?: string;
}

/** The demo clinic: its project and the Synthea patients shipped in tests/fixtures. */
export async function seedDemo(
  repository: Repository,
  registry: SearchParameterRegistry,
  options: {
    fixturesDir: string;
    fhirBase: string;
    /** BASE_URL: where the SMART launch check is served and registered. */
    baseUrl: string;
    log: (line: string) => void;
    admin: AdminState;
    password?: string;
    dataDir: string;
  },
): Promise<DemoState> {
  const existing = await readState<DemoState>(repository.db, 'demo');
  if (existing) {
    const launchCheckClientId = existing.launchCheckClientId ?? randomUUID();
    await repository.transaction((session) =>
      seedLaunchCheckApp(session, { projectId: existing.projectId, baseUrl: options.baseUrl, id: launchCheckClientId }),
    );
    if (!existing.launchCheckClientId) await writeState(repository.db, 'demo', { ...existing, launchCheckClientId });
    return { ...existing, launchCheckClientId };
  }

  const ctx = { projectId: randomUUID(), author: systemAuthor };
  await repository.transaction((session) =>
    session.create(
      ctx,
      {
        resourceType: 'Project',
        name: 'Demo Clinic',
        description: 'Synthetic patients for trying Hearth EMR',
      } as Resource,
      { id: ctx.projectId, fresh: true },
    ),
  );
  await repository.transaction((session) => seedBundledQuestionnaires(session, ctx.projectId));

  const files = readdirSync(options.fixturesDir)
    .filter((name) => name.endsWith('.json'))
    .sort();
  let resources = 0;
  for (const file of files) {
    const bundle = JSON.parse(readFileSync(join(options.fixturesDir, file), 'utf8')) as Bundle;
    const response = await processBundle({ repository, registry, ctx, fhirBase: options.fhirBase }, bundle);
    resources += response.entry?.length ?? 0;
  }
  const people = await repository.transaction((session) =>
    seedDemoAccounts(session, {
      projectId: ctx.projectId,
      admin: options.admin,
      password: options.password,
      dataDir: options.dataDir,
    }),
  );
  // The DoseSpot bots ship with the product; the demo clinic has them (its e-prescribing screen says which secrets to set).
  await repository.transaction((session) => seedDoseSpotBots(session, { projectId: ctx.projectId }));
  // Tasks, messages, appointments, orders, documents, vitals…: every chart tab has something to show.
  const clinical = await repository.transaction((session) =>
    seedDemoClinicalData(session, { projectId: ctx.projectId, dataDir: options.dataDir }),
  );
  resources += clinical.resources;
  // Questionnaire work (a PHQ-9 to fill, a visit note to review) for the task page's fill and review actions.
  resources += await repository.transaction((session) =>
    seedDemoQuestionnaireTasks(session, { projectId: ctx.projectId }),
  );
  // A SMART app to launch from the chart's "Apps" menu.
  const launchCheckClientId = randomUUID();
  await repository.transaction((session) =>
    seedLaunchCheckApp(session, { projectId: ctx.projectId, baseUrl: options.baseUrl, id: launchCheckClientId }),
  );
  const state: DemoState = {
    projectId: ctx.projectId,
    patients: files.length,
    resources,
    accounts: people.accounts,
    launchCheckClientId,
  };
  await writeState(repository.db, 'demo', state);
  state.generatedPassword = people.generatedPassword;
  state.passwordFile = people.passwordFile;
  options.log(`Seeded the Demo Clinic: ${files.length} patients, ${resources} resources`);
  return state;
}
