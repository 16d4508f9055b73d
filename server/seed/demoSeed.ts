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

export interface DemoState {
  projectId: string;
  patients: number;
  resources: number;
  accounts?: DemoAccount[];
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
    log: (line: string) => void;
    admin: AdminState;
    password?: string;
    dataDir: string;
  },
): Promise<DemoState> {
  const existing = await readState<DemoState>(repository.db, 'demo');
  if (existing) return existing;

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
  const state: DemoState = { projectId: ctx.projectId, patients: files.length, resources, accounts: people.accounts };
  await writeState(repository.db, 'demo', state);
  state.generatedPassword = people.generatedPassword;
  state.passwordFile = people.passwordFile;
  options.log(`Seeded the Demo Clinic: ${files.length} patients, ${resources} resources`);
  return state;
}
