import { DateField, FunctionField, Show, SimpleShowLayout, TextField } from 'react-admin';
import type { Address, Patient } from '@medplum/fhirtypes';
import { formatHumanName } from '../../data-provider';

function formatAddress(address: Address | undefined): string {
  if (!address) return '';
  return [...(address.line ?? []), address.city, address.state, address.postalCode].filter(Boolean).join(', ');
}

export function PatientShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <FunctionField<Patient>
          label="Name"
          render={(patient) => formatHumanName(patient.name?.[0], { prefix: true })}
        />
        <TextField source="gender" />
        <DateField source="birthDate" label="Birth date" />
        <FunctionField<Patient> label="Address" render={(patient) => formatAddress(patient.address?.[0])} />
        <FunctionField<Patient>
          label="Phone"
          render={(patient) => patient.telecom?.find((t) => t.system === 'phone')?.value ?? ''}
        />
        <TextField source="id" label="ID" />
      </SimpleShowLayout>
    </Show>
  );
}
