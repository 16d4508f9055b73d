import { useState } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  LinearProgress,
  Radio,
  RadioGroup,
  Typography,
} from '@mui/material';
import type { Resource, ResourceType } from '@medplum/fhirtypes';
import type { SearchRequest } from '../../data-provider/search';
import type { SearchParameterModel, TypeSchema } from '../resources/typeSchema';
import { useFhirClient } from '../resources/useFhirClient';
import { EXPORT_LIMIT, prepareCsvColumns, toCsv, toTransactionBundle } from './exportRecords';
import { serverQuery } from './searchState';

const PAGE = 100;

function download(content: string, type: string, filename: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Export dialog: the current search's matches (at most 1,000) as CSV or a transaction Bundle. */
export function ExportDialog(props: {
  request: SearchRequest;
  schema?: TypeSchema;
  parameters?: readonly SearchParameterModel[];
  onClose: () => void;
}) {
  const client = useFhirClient();
  const [format, setFormat] = useState<'csv' | 'bundle'>('csv');
  const [progress, setProgress] = useState<number | undefined>();
  const [error, setError] = useState<string>();

  async function run(): Promise<void> {
    setError(undefined);
    setProgress(0);
    try {
      const resources: Resource[] = [];
      let total = EXPORT_LIMIT;
      for (let offset = 0; offset < Math.min(total, EXPORT_LIMIT); offset += PAGE) {
        const query = serverQuery({ ...props.request, offset, count: PAGE, total: offset === 0 ? 'accurate' : 'none' });
        const bundle = await client.search(props.request.resourceType as ResourceType, query, { cache: 'no-cache' });
        if (offset === 0) total = bundle.total ?? EXPORT_LIMIT;
        const page = (bundle.entry ?? []).map((entry) => entry.resource as Resource).filter(Boolean);
        resources.push(...page);
        setProgress(Math.round((100 * resources.length) / Math.max(1, Math.min(total, EXPORT_LIMIT))));
        if (page.length < PAGE) break;
      }
      const exported = resources.slice(0, EXPORT_LIMIT);
      const name = `${props.request.resourceType}-export`;
      if (format === 'csv') {
        await prepareCsvColumns(props.request.fields ?? [], props.schema, props.parameters);
        download(
          toCsv(exported, props.request.fields ?? [], props.schema, props.parameters),
          'text/csv',
          `${name}.csv`,
        );
      } else {
        download(JSON.stringify(toTransactionBundle(exported), null, 2), 'application/fhir+json', `${name}.json`);
      }
      props.onClose();
    } catch (cause) {
      setError((cause as Error).message);
      setProgress(undefined);
    }
  }

  return (
    <Dialog open onClose={props.onClose} slotProps={{ paper: { sx: { width: 550, maxWidth: '100%' } } }}>
      <DialogTitle>Export</DialogTitle>
      <DialogContent>
        <Typography variant="body2" gutterBottom>
          Exports the records of this search, at most {EXPORT_LIMIT.toLocaleString('en-US')}.
        </Typography>
        <RadioGroup
          aria-label="Export format"
          value={format}
          onChange={(event) => setFormat(event.target.value as 'csv' | 'bundle')}
        >
          <FormControlLabel value="csv" control={<Radio />} label="CSV (ID, then the shown columns)" />
          <FormControlLabel value="bundle" control={<Radio />} label="Transaction Bundle (FHIR JSON)" />
        </RadioGroup>
        {progress !== undefined && (
          <LinearProgress variant="determinate" value={progress} aria-label="Export progress" sx={{ mt: 2 }} />
        )}
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>Cancel</Button>
        <Button variant="contained" onClick={() => void run()} disabled={progress !== undefined}>
          Export
        </Button>
      </DialogActions>
    </Dialog>
  );
}
