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
import {
  FRONT_DESK_POLICY_VERSION,
  frontDeskLiveChatEntry,
  frontDeskPatientEntries,
  upgradeFrontDeskPolicy,
} from './frontDeskPolicy';
import { PATIENT_PORTAL_POLICY_VERSION, patientPortalPolicy, upgradePatientPortalPolicy } from './patientPortalPolicy';

export interface DemoState {
  projectId: string;
  patients: number;
  resources: number;
  accounts?: DemoAccount[];
  /** The SMART launch check's ClientApplication id (given once; demo databases from before it get one). */
  launchCheckClientId?: string;
  /**
   * The version of the patient portal policy the project's policy was last brought to
   * (patientPortalPolicy.ts); absent in demo databases from before it was recorded (version 1 or 2).
   */
  patientPortalPolicyVersion?: number;
  /** The same for the "Front desk" policy (frontDeskPolicy.ts); absent in demo databases from before (version 1). */
  frontDeskPolicyVersion?: number;
  /**
   * The version of the clinical stories the clinic was seeded with (DEMO_DATA_VERSION); absent in demo
   * databases from before it was recorded (version 1). Seeded once, on the first start: a database keeps
   * the stories it was seeded with (no upgrade rewrites a clinic's charts); a fresh one gets the current.
   */
  demoDataVersion?: number;
  /** Set only on the run that generated the demo password. */
  generatedPassword?: string;
  passwordFile?: string;
}

/**
 * The clinical stories' version. 2: Wendy's lifestyle trial before her amlodipine, and her diagnosis's
 * visit; Lemuel at target when his lisinopril is renewed; the hospital stay a discharge summary is about.
 * 3: the day of the first start (demoClinicDay.ts): Wendy checked in for her follow-up, another patient
 * booked later that day, a third seen earlier. Not added to a database seeded before: it would be the
 * day of the upgrade, with a patient "arriving" whenever the server is upgraded.
 */
export const DEMO_DATA_VERSION = 3;

interface DemoSeedOptions {
  fixturesDir: string;
  fhirBase: string;
  /** BASE_URL: where the SMART launch check is served and registered. */
  baseUrl: string;
  log: (line: string) => void;
  admin: AdminState;
  password?: string;
  dataDir: string;
}

/**
 * The demo clinic: its project and the Synthea patients shipped in tests/fixtures, seeded on the
 * first start; on every start, its SMART launch check registered for this BASE_URL (demo databases
 * from before the app get it too), and once per policy version, the patient portal and front desk
 * policies of a demo database seeded before brought up to date (unless the clinic edited them).
 */
export async function seedDemo(
  repository: Repository,
  registry: SearchParameterRegistry,
  options: DemoSeedOptions,
): Promise<DemoState> {
  const existing = await readState<DemoState>(repository.db, 'demo');
  // A new clinic is seeded with the current policy.
  const state: DemoState = existing ?? {
    ...(await seedDemoClinic(repository, registry, options)),
    demoDataVersion: DEMO_DATA_VERSION,
    patientPortalPolicyVersion: PATIENT_PORTAL_POLICY_VERSION,
    frontDeskPolicyVersion: FRONT_DESK_POLICY_VERSION,
  };
  const launchCheckClientId = state.launchCheckClientId ?? randomUUID();
  await repository.transaction((session) =>
    seedLaunchCheckApp(session, { projectId: state.projectId, baseUrl: options.baseUrl, id: launchCheckClientId }),
  );
  // Tried once per version: a clinic that takes an entry out again is not overruled on the next start.
  const policyOutdated = (state.patientPortalPolicyVersion ?? 1) < PATIENT_PORTAL_POLICY_VERSION;
  if (policyOutdated) {
    const upgrade = await repository.transaction((session) => upgradePatientPortalPolicy(session, state.projectId));
    if (upgrade === 'upgraded') options.log('Brought the Demo Clinic\'s "Patient portal" access policy up to date');
    if (upgrade === 'edited') {
      options.log(
        'The Demo Clinic\'s "Patient portal" access policy was edited, so it was left as it is: a policy that ' +
          'lets patients write their compartment lets them make up, change and delete their clinical records, ' +
          "and one that lets them read all of it shows them the care team's drafts, tasks and internal messages. " +
          "The seed's lets them read their record without those and write only their messages and live-chat " +
          'Subscription: ' +
          `${JSON.stringify(patientPortalPolicy.resource)}`,
      );
    }
  }
  const frontDeskOutdated = (state.frontDeskPolicyVersion ?? 1) < FRONT_DESK_POLICY_VERSION;
  if (frontDeskOutdated) {
    const upgrade = await repository.transaction((session) => upgradeFrontDeskPolicy(session, state.projectId));
    if (upgrade === 'upgraded') options.log('Brought the Demo Clinic\'s "Front desk" access policy up to date');
    if (upgrade === 'edited') {
      options.log(
        'The Demo Clinic\'s "Front desk" access policy was edited, so it was left as it is: for the chat to ' +
          `show new messages live, add ${JSON.stringify(frontDeskLiveChatEntry)} to it; for the desk to ` +
          `register patients with an MRN it cannot change later, give Patient the entries ${JSON.stringify(frontDeskPatientEntries)}`,
      );
    }
  }
  const current = {
    ...state,
    launchCheckClientId,
    patientPortalPolicyVersion: PATIENT_PORTAL_POLICY_VERSION,
    frontDeskPolicyVersion: FRONT_DESK_POLICY_VERSION,
  };
  if (!existing?.launchCheckClientId || policyOutdated || frontDeskOutdated) {
    // The generated password is shown once, never stored.
    const { generatedPassword: _password, passwordFile: _file, ...kept } = current;
    await writeState(repository.db, 'demo', kept);
  }
  return current;
}

/** The first start's clinic: project, patients, accounts, bots and clinical work (the state is saved by the caller). */
async function seedDemoClinic(
  repository: Repository,
  registry: SearchParameterRegistry,
  options: DemoSeedOptions,
): Promise<DemoState> {
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
  options.log(`Seeded the Demo Clinic: ${files.length} patients, ${resources} resources`);
  return {
    projectId: ctx.projectId,
    patients: files.length,
    resources,
    accounts: people.accounts,
    generatedPassword: people.generatedPassword,
    passwordFile: people.passwordFile,
  };
}
