import type { ClientApplication } from '@medplum/fhirtypes';
import { beforeAll, describe, expect, it } from 'vitest';
import { embeddedTestDatabase } from '../../tests/setup/embeddedTestDatabase';
import { Repository } from '../fhir/repository';
import { definitionSearchParameters } from '../serverRuntime';
import { seedLaunchCheckApp } from './launchCheckApp';

const database = embeddedTestDatabase('launch-check-app');
let repository: Repository;

beforeAll(() => {
  repository = new Repository(database(), definitionSearchParameters());
});

const seed = (id: string, baseUrl: string) =>
  repository.transaction((session) => seedLaunchCheckApp(session, { projectId: 'demo-project', baseUrl, id }));

const stored = (id: string) =>
  repository.transaction(
    async (session) =>
      (await session.read('ClientApplication', id)) as ClientApplication & { meta: { versionId: string } },
  );

describe('the SMART launch check app of the demo clinic', () => {
  it('is registered for BASE_URL with its client id in its launch URI, once', async () => {
    expect(await seed('app-1', 'http://localhost:8103/')).toBe(true);
    const first = await stored('app-1');
    expect(first).toMatchObject({
      name: 'SMART launch check',
      redirectUri: 'http://localhost:8103/smart-launch-check/',
      launchUri: 'http://localhost:8103/smart-launch-check/?client_id=app-1',
      meta: { project: 'demo-project' },
    });
    // A restart on the same BASE_URL writes nothing.
    expect(await seed('app-1', 'http://localhost:8103/')).toBe(true);
    expect((await stored('app-1')).meta.versionId).toBe(first.meta.versionId);
  });

  it('follows a changed BASE_URL, and is not registered where no redirect URI may point', async () => {
    await seed('app-2', 'http://localhost:8103/');
    await seed('app-2', 'https://emr.clinic.example/');
    expect(await stored('app-2')).toMatchObject({
      redirectUri: 'https://emr.clinic.example/smart-launch-check/',
      launchUri: 'https://emr.clinic.example/smart-launch-check/?client_id=app-2',
    });
    expect(await seed('app-3', 'http://emr.clinic.lan/')).toBe(false);
    await expect(stored('app-3')).rejects.toThrow(/not found/i);
  });
});
