import type { Resource } from '@medplum/fhirtypes';
import type { ResourcePaths } from '../../src/resources/resourcePaths';

/** `/Patient/{id}` and the paths under it (app-spec §2.2). */
export function chartPath(patientId: string, ...segments: string[]): string {
  return ['', 'Patient', patientId, ...segments].join('/');
}

/** The editor's saves and deletes inside a chart stay inside it: a row's details, or the tab's list. */
export function chartResourcePaths(patientId: string): ResourcePaths {
  return {
    saved: (resource: Resource) => {
      if (resource.resourceType === 'Patient') return chartPath(resource.id ?? patientId, 'timeline');
      if (resource.resourceType === 'Task') return chartPath(patientId, 'task', resource.id ?? '');
      return chartPath(patientId, resource.resourceType, resource.id ?? '', 'details');
    },
    list: (resourceType) => (resourceType === 'Patient' ? '/Patient' : chartPath(patientId, resourceType)),
  };
}
