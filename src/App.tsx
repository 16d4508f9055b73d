import { Admin, Resource } from 'react-admin';
import PeopleIcon from '@mui/icons-material/People';
import { createFhirAuthProvider, createFhirDataProvider } from '../data-provider/react-admin';
import { SignInPage } from '../custom-screens/signin';
import { hearthClient } from './hearthClient';
import { PatientList } from './patients/PatientList';
import { PatientShow } from './patients/PatientShow';

const authProvider = createFhirAuthProvider(hearthClient);
const dataProvider = createFhirDataProvider(hearthClient);
const LoginPage = () => <SignInPage client={hearthClient} />;

/** Sign-in, then the patients of the signed-in project. The full shell (issue 8) replaces this layout. */
export function App() {
  return (
    <Admin
      title="Hearth EMR"
      dataProvider={dataProvider}
      authProvider={authProvider}
      loginPage={LoginPage}
      disableTelemetry
    >
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
