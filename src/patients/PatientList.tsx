import { Datagrid, DateField, FunctionField, List, TextField } from 'react-admin';
import type { Patient } from '@medplum/fhirtypes';
import { formatHumanName } from '../../data-provider';

export function PatientList() {
  return (
    <List sort={{ field: 'lastUpdated', order: 'DESC' }} perPage={20} exporter={false}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <FunctionField<Patient> label="Name" source="name" render={(patient) => formatHumanName(patient.name?.[0])} />
        <TextField source="gender" />
        <DateField source="birthDate" label="Birth date" />
        <DateField source="lastUpdated" label="Last updated" showTime />
      </Datagrid>
    </List>
  );
}
