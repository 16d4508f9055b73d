import { describe, expect, it } from 'vitest';
import type { Patient } from '@medplum/fhirtypes';
import { lookupFollowed, NO_PROVIDER, PROVIDER_NOT_AVAILABLE, providerLine } from './providerLine';

const patient = (generalPractitioner?: Patient['generalPractitioner'], extra: Partial<Patient> = {}): Patient => ({
  resourceType: 'Patient',
  id: 'p1',
  generalPractitioner,
  ...extra,
});
const found = { loading: false, names: new Map([['Practitioner/pr1', 'Keeley Yundt']]) };
const nothing = { loading: false, names: new Map<string, string>() };

describe('provider line', () => {
  it('says "No provider" only when the patient has none', () => {
    expect(providerLine(patient(), found)).toBe(NO_PROVIDER);
    expect(providerLine(patient([]), found)).toBe(NO_PROVIDER);
    expect(providerLine(patient([{}]), { loading: true, names: new Map() })).toBe(NO_PROVIDER);
    expect(providerLine(patient([{ reference: 'Practitioner/pr1' }]), found)).not.toBe(NO_PROVIDER);
  });

  it('names the provider by its display, else the looked-up or contained resource', () => {
    expect(providerLine(patient([{ reference: 'Practitioner/x', display: ' Dr. Alice Carter ' }]), nothing)).toBe(
      'Dr. Alice Carter',
    );
    expect(providerLine(patient([{ reference: 'Practitioner/pr1' }]), found)).toBe('Keeley Yundt');
    expect(providerLine(patient([{ reference: 'https://ehr.example/fhir/Practitioner/pr1' }]), found)).toBe(
      'Keeley Yundt',
    );
    const contained = patient([{ reference: '#gp' }], {
      contained: [{ resourceType: 'Organization', id: 'gp', name: 'Hillside Clinic' }],
    });
    expect(providerLine(contained, nothing)).toBe('Hillside Clinic');
  });

  it('waits while the look-up runs, then says the provider is not available — never the id', () => {
    const unread = patient([{ reference: 'Practitioner/694a34a3-af6e-49a5-89e3-adc7235bc923' }]);
    expect(providerLine(unread, { loading: true, names: new Map() })).toBeUndefined();
    expect(providerLine(unread, nothing)).toBe(PROVIDER_NOT_AVAILABLE);
    expect(providerLine(patient([{ reference: '#missing' }]), nothing)).toBe(PROVIDER_NOT_AVAILABLE);
    expect(providerLine(patient([{ identifier: { value: '110' } }]), nothing)).toBe(PROVIDER_NOT_AVAILABLE);
  });

  it('knows whether a look-up followed the patient’s present provider', () => {
    const now = patient([{ reference: 'Practitioner/new' }]);
    expect(lookupFollowed(now, patient([{ reference: 'Practitioner/old' }, { reference: 'Practitioner/new' }]))).toBe(
      true,
    );
    expect(lookupFollowed(now, patient([{ reference: 'Practitioner/old' }]))).toBe(false);
    expect(lookupFollowed(now, undefined)).toBe(false);
    // Nothing to follow: nothing to look up again.
    expect(lookupFollowed(patient([{ display: 'Dr. Carter' }]), undefined)).toBe(true);
  });
});
