import { createContext, useContext } from 'react';
import type { Resource } from '@medplum/fhirtypes';

/** Where the editor goes after a save or a delete; the patient chart keeps both inside itself. */
export interface ResourcePaths {
  saved(resource: Resource): string;
  list(resourceType: string): string;
}

export const consoleResourcePaths: ResourcePaths = {
  // A Patient's page is its chart (app-spec §2.2), which has no Details tab.
  saved: (resource) =>
    resource.resourceType === 'Patient'
      ? `/Patient/${resource.id}`
      : `/${resource.resourceType}/${resource.id}/details`,
  list: (resourceType) => `/${resourceType}`,
};

export const ResourcePathsContext = createContext<ResourcePaths>(consoleResourcePaths);

export function useResourcePaths(): ResourcePaths {
  return useContext(ResourcePathsContext);
}
