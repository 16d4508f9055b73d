import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { SchemaLoader } from '../../schema-engine';
import { recordedSource } from '../../schema-engine/test-support/recordedDefinitions';
import { ResourceForm } from './ResourceForm';
import { setSchemaLoader } from './typeSchema';
import { FhirClientContext } from './useFhirClient';

// Any request an input makes to the server on its own (before the user touches it) fails the test;
// listening for the client's events is allowed.
const LISTENING = new Set(['addEventListener', 'removeEventListener']);
const client = new Proxy({} as FhirClient, {
  get: (_target, name) => {
    if (name === 'then') return undefined;
    if (LISTENING.has(String(name))) return () => undefined;
    return () => {
      throw new Error(`the form called client.${String(name)} without a user action`);
    };
  },
});
const loader = new SchemaLoader(recordedSource());
setSchemaLoader(client, loader);

/** The largest resource of each type in the Synthea fixtures: the most elements to round-trip. */
function largestOfEachType(): Resource[] {
  const dir = join(process.cwd(), 'tests', 'fixtures', 'synthea');
  const byType = new Map<string, { resource: Resource; size: number }>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const bundle = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Bundle;
    for (const entry of bundle.entry ?? []) {
      const resource = entry.resource as Resource;
      const size = JSON.stringify(resource).length;
      const best = byType.get(resource.resourceType);
      if (!best || size > best.size) byType.set(resource.resourceType, { resource, size });
    }
  }
  return [...byType.values()].map((v) => v.resource).sort((a, b) => a.resourceType.localeCompare(b.resourceType));
}

const samples = largestOfEachType();

describe('ResourceForm saves an untouched resource unchanged', { timeout: 60_000 }, () => {
  it('covers every resource type of the Synthea fixtures', () => {
    expect(samples.map((r) => r.resourceType)).toEqual([
      'CarePlan',
      'Claim',
      'Condition',
      'DiagnosticReport',
      'Encounter',
      'ExplanationOfBenefit',
      'Goal',
      'Immunization',
      'MedicationRequest',
      'Observation',
      'Organization',
      'Patient',
      'Practitioner',
      'Procedure',
    ]);
  });

  it.each(samples.map((resource) => [resource.resourceType, resource] as const))(
    '%s: Update without touching anything writes the same resource, key order included',
    async (type, resource) => {
      const schema = await loader.loadType(type);
      const input = structuredClone(resource);
      const onSubmit = vi.fn();
      const { unmount } = render(
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <FhirClientContext.Provider value={client}>
            <ResourceForm schema={schema} defaultValue={input} onSubmit={onSubmit} />
          </FhirClientContext.Provider>
        </QueryClientProvider>,
      );
      const user = userEvent.setup({ delay: null });
      await user.click(await screen.findByRole('button', { name: 'Update' }));
      expect(onSubmit).toHaveBeenCalledTimes(1);
      const saved = onSubmit.mock.calls[0][0] as Resource;
      expect(saved).toEqual(resource);
      // The form edits a copy of the resource: an untouched one keeps its keys in their order.
      expect(JSON.stringify(saved)).toBe(JSON.stringify(resource));
      // The form never changes the value it was given.
      expect(input).toEqual(resource);
      unmount();
    },
  );
});
