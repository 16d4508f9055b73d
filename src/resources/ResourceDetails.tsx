import { Alert, Box, CircularProgress } from '@mui/material';
import type { Resource } from '@medplum/fhirtypes';
import { hiddenFieldsFor } from '../../data-provider/access';
import { ElementList } from '../datatypes/ValueDisplay';
import { detailsHeaderFor } from './detailsHeaders';
import { useTypeSchema } from './schemaHooks';
import { childElements, typeElementsFirst } from './typeSchema';
import { useFhirClient } from './useFhirClient';

/** The Details tab: every present element, formatted by its type; hidden fields absent. */
export function ResourceDetails(props: { resource: Resource }) {
  const client = useFhirClient();
  const schema = useTypeSchema(props.resource.resourceType);
  if (schema.error) return <Alert severity="error">{schema.error.message}</Alert>;
  if (!schema.data) return <CircularProgress aria-label="Loading..." />;
  const hidden = hiddenFieldsFor(client.getAccessPolicy(), props.resource.resourceType);
  const Header = detailsHeaderFor(props.resource.resourceType);
  return (
    <Box>
      {Header && <Header resource={props.resource} />}
      <ElementList
        elements={typeElementsFirst(childElements(schema.data, ''))}
        value={props.resource as unknown as Record<string, unknown>}
        schema={schema.data}
        hidden={hidden}
      />
    </Box>
  );
}
