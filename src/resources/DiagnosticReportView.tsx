import { useQuery } from '@tanstack/react-query';
import { Box, Chip, Table, TableBody, TableCell, TableHead, TableRow, Typography, type Theme } from '@mui/material';
import type { Attachment, DiagnosticReport, Observation, Reference, Resource, Specimen } from '@medplum/fhirtypes';
import {
  formatCodeableConcept,
  formatDateTime,
  formatObservationValue,
  formatRange,
  getDisplayString,
  inlineTextOf,
} from '../../data-provider/formatting';
import { AttachmentLink } from '../datatypes/AttachmentLink';
import { formatTypedValue } from '../datatypes/formatValue';
import { StatusBadge } from '../datatypes/StatusBadge';
import { resultFlag } from './resultFlag';
import { useFhirClient } from './useFhirClient';

export { CRITICAL_INTERPRETATIONS, isCritical } from './resultFlag';

function useReferences<T>(references: Reference[] | undefined, key: string) {
  const client = useFhirClient();
  return useQuery<T[], Error>({
    queryKey: ['hearth-refs', key, (references ?? []).map((r) => r.reference).join(',')],
    queryFn: () =>
      Promise.all((references ?? []).filter((r) => r.reference).map((r) => client.readReference(r) as Promise<T>)),
    enabled: (references ?? []).length > 0,
    retry: false,
  });
}

function Section(props: { title: string; children: React.ReactNode }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: '160px 1fr', gap: 2, py: 0.5 }}>
      <Typography variant="body2" color="text.secondary" sx={{ fontWeight: 500 }}>
        {props.title}
      </Typography>
      <Box>{props.children}</Box>
    </Box>
  );
}

/**
 * One presented form (app-spec: "presentedForm shown decoded"): a note carried inline as text is
 * shown as its text, decoded in its charset; a file (a PDF, a scan) is named and linked.
 */
function PresentedForm({ form }: { form: Attachment }) {
  const text = inlineTextOf(form);
  if (text !== undefined) {
    return (
      <Typography variant="body2" component="pre" sx={{ whiteSpace: 'pre-wrap', fontFamily: 'inherit', m: 0 }}>
        {text}
      </Typography>
    );
  }
  const name = form.title ?? form.contentType ?? 'Attachment';
  // A stored file's address comes signed by the server, so it opens without the app's token; any
  // other address is the writer's, and is not loaded (AttachmentLink).
  return form.url ? (
    <AttachmentLink attachment={form} name={name} />
  ) : (
    <Typography variant="body2">{formatTypedValue(form, 'Attachment')}</Typography>
  );
}

/** The diagnostic report view of app-spec §2.9 (Subject … Specimens, then the results table). */
export function DiagnosticReportView(props: { report: DiagnosticReport }) {
  const { report } = props;
  const results = useReferences<Observation>(report.result, 'results');
  const specimens = useReferences<Specimen>(report.specimen, 'specimens');
  // The subject by name when the reference carries no display.
  const subject = useReferences<Resource>(
    report.subject && !report.subject.display ? [report.subject] : undefined,
    'subject',
  );
  const refs = (list: Reference[] | undefined) => (list ?? []).map((r) => formatTypedValue(r, 'Reference')).join(', ');
  return (
    <Box aria-label="Diagnostic report">
      <Typography variant="h6" component="h2">
        {formatCodeableConcept(report.code) || 'Diagnostic report'}
      </Typography>
      <Section title="Subject">
        {subject.data?.[0] ? getDisplayString(subject.data[0]) : formatTypedValue(report.subject, 'Reference')}
      </Section>
      <Section title="Interpreter">{refs(report.resultsInterpreter)}</Section>
      <Section title="Performer">{refs(report.performer)}</Section>
      <Section title="Issued">{report.issued ? formatDateTime(report.issued) : ''}</Section>
      <Section title="Status">{report.status && <StatusBadge status={report.status} />}</Section>
      {(specimens.data ?? []).length > 0 && (
        <Section title="Specimens">
          {(specimens.data ?? []).map((specimen) => (
            <Typography key={specimen.id} variant="body2">
              Collected:{' '}
              {specimen.collection?.collectedDateTime ? formatDateTime(specimen.collection.collectedDateTime) : '—'}
              {' · '}Received: {specimen.receivedTime ? formatDateTime(specimen.receivedTime) : '—'}
            </Typography>
          ))}
        </Section>
      )}
      {(report.presentedForm ?? []).length > 0 && (
        <Section title="Report">
          {(report.presentedForm ?? []).map((form, index) => (
            <PresentedForm key={index} form={form} />
          ))}
        </Section>
      )}
      {(report.result ?? []).length > 0 && (
        <Table size="small" aria-label="Results" sx={{ mt: 2 }}>
          <TableHead>
            <TableRow>
              <TableCell>Test</TableCell>
              <TableCell>Value</TableCell>
              <TableCell>Reference Range</TableCell>
              <TableCell>Interpretation</TableCell>
              <TableCell>Status</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(results.data ?? []).map((observation) => {
              const flag = resultFlag(observation);
              const critical = flag === 'critical';
              // High or low in the vitals' amber, in bold, with an arrow: seen without reading the column.
              const outOfRange =
                flag === 'high' || flag === 'low'
                  ? {
                      fontWeight: 700,
                      color: (t: Theme) => (t.palette.mode === 'dark' ? '#ffcc80' : '#8a4b00'),
                    }
                  : undefined;
              return (
                <TableRow
                  key={observation.id}
                  data-critical={critical || undefined}
                  data-flag={flag}
                  sx={critical ? { bgcolor: (t) => (t.palette.mode === 'dark' ? '#4a1515' : '#ffe5e5') } : undefined}
                >
                  <TableCell>{formatCodeableConcept(observation.code)}</TableCell>
                  <TableCell sx={outOfRange}>{formatObservationValue(observation)}</TableCell>
                  <TableCell>
                    {(observation.referenceRange ?? []).map((r) => r.text ?? formatRange(r as never)).join(', ')}
                  </TableCell>
                  <TableCell sx={outOfRange}>
                    {flag === 'high' && <span aria-hidden="true">↑ </span>}
                    {flag === 'low' && <span aria-hidden="true">↓ </span>}
                    {(observation.interpretation ?? []).map(formatCodeableConcept).join(', ')}
                    {critical && <Chip size="small" color="error" label="Critical" sx={{ ml: 1 }} />}
                  </TableCell>
                  <TableCell>{observation.status && <StatusBadge status={observation.status} />}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}
