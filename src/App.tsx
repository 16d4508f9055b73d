import { Admin, Resource } from 'react-admin';
import PeopleIcon from '@mui/icons-material/People';
import { bootstrapDataProvider } from './bootstrapDataProvider';
import { PatientList } from './patients/PatientList';
import { PatientShow } from './patients/PatientShow';

/** The first screen: the Demo Clinic's patients, read-only. Sign-in and the real shell replace it. */
export function App() {
  return (
    <Admin title="Hearth EMR" dataProvider={bootstrapDataProvider} disableTelemetry requireAuth={false}>
      <Resource
        name="Patient"
        options={{ label: 'Patients' }}
        icon={PeopleIcon}
        list={PatientList}
        show={PatientShow}
      />
    </Admin>
  );
}
