import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import {
  Box,
  Button,
  Chip,
  Link,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import PushPinIcon from '@mui/icons-material/PushPin';
import type { Attachment, DiagnosticReport, Resource } from '@medplum/fhirtypes';
import { StatusBadge } from '../../../src/datatypes/StatusBadge';
import { DiagnosticReportView } from '../../../src/resources/DiagnosticReportView';
import { versionDiff } from '../../../src/resources/versionDiff';
import { changeFieldLabel, changeValueText } from './versionChangeText';
import { useChartViewer } from '../chartViewer';
import { ListDate } from '../ListDate';
import { listDateParts } from '../listDateParts';
import { isPinned, priorityRank, timelineDate, type TimelineItem } from './timelineOrder';
import { reportSummary } from './reportSummary';
import { timelineByline } from './recordedAuthor';
import { TimelineAttachment } from './TimelineAttachment';
import { timelineEntryLink } from './timelineEntryLink';
import { timelineTitle } from './timelineTitle';

type Json = Record<string, unknown>;

const TYPE_LABELS: Record<string, string> = {
  Patient: 'Patient record',
  Communication: 'Message',
  Device: 'Device',
  DeviceRequest: 'Device request',
  DiagnosticReport: 'Report',
  DocumentReference: 'Document',
  Media: 'Media',
  ServiceRequest: 'Order',
  Task: 'Task',
};

function attachmentsOf(resource: Resource): Attachment[] {
  const json = resource as unknown as Json;
  if (resource.resourceType === 'Communication') {
    return ((json.payload as { contentAttachment?: Attachment }[] | undefined) ?? []).flatMap((part) =>
      part.contentAttachment ? [part.contentAttachment] : [],
    );
  }
  if (resource.resourceType === 'Media' && json.content) return [json.content as Attachment];
  if (resource.resourceType === 'DocumentReference') {
    return ((json.content as { attachment?: Attachment }[] | undefined) ?? []).flatMap((part) =>
      part.attachment ? [part.attachment] : [],
    );
  }
  return [];
}

function messageText(resource: Resource): string[] {
  if (resource.resourceType !== 'Communication') return [];
  const payload = ((resource as unknown as Json).payload as { contentString?: string }[] | undefined) ?? [];
  return payload.flatMap((part) => (part.contentString ? [part.contentString] : []));
}

function VersionChanges({ item }: { item: TimelineItem }) {
  const changes = versionDiff(item.previous, item.resource);
  if (changes.length === 0) return <Typography variant="body2">No change besides its metadata.</Typography>;
  return (
    <Table size="small" aria-label="Changes">
      <TableHead>
        <TableRow>
          <TableCell component="th">Field</TableCell>
          <TableCell component="th">Before</TableCell>
          <TableCell component="th">After</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {changes.map((change) => (
          <TableRow key={change.path}>
            <TableCell title={change.path}>{changeFieldLabel(change.path)}</TableCell>
            <TableCell>{changeValueText(change.before)}</TableCell>
            <TableCell>{changeValueText(change.after)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

interface TimelineEntryProps {
  item: TimelineItem;
  patientId: string;
  /** A message's sender as the chat names them (looked up when the message names them by reference only). */
  senderName?: string;
}

/** One timeline entry (app-spec §2.9): what happened, when, by whom, with its attachments. */
export function TimelineEntry({ item, patientId, senderName }: TimelineEntryProps) {
  const { resource } = item;
  const json = resource as unknown as Json;
  const [reportOpen, setReportOpen] = useState(false);
  const pinned = isPinned(resource);
  const urgent = priorityRank(resource) < 3;
  const date = timelineDate(item);
  const dateParts = listDateParts(date);
  const isPatient = resource.resourceType === 'Patient';
  const { patientView } = useChartViewer();
  const link = timelineEntryLink(resource, patientId, patientView);
  const status = typeof json.status === 'string' ? json.status : undefined;
  const priority = typeof json.priority === 'string' ? json.priority : undefined;
  const byline = timelineByline(resource, date === resource.meta?.lastUpdated);
  const report = resource.resourceType === 'DiagnosticReport' ? (resource as DiagnosticReport) : undefined;
  const summary = report ? reportSummary(report) : [];
  const title = timelineTitle(resource, senderName);
  return (
    <Paper
      component="article"
      variant="outlined"
      aria-label={`${TYPE_LABELS[resource.resourceType] ?? resource.resourceType}: ${isPatient ? (item.previous ? 'updated' : 'created') : title}`}
      sx={{
        p: 1.5,
        // One unbroken word (a pasted URL, a file name) must break inside the card: overflow-wrap is
        // inherited by every text below, and "anywhere" (unlike break-word) also lowers the card's
        // min-content width, which the chart's and the portal's flex columns size themselves by.
        overflowWrap: 'anywhere',
        minWidth: 0,
        borderLeftWidth: pinned || urgent ? 4 : 1,
        borderLeftColor: pinned || urgent ? 'error.main' : 'divider',
      }}
    >
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
        {pinned && <Chip size="small" icon={<PushPinIcon />} label="Pinned" color="error" variant="outlined" />}
        <Typography variant="body2" sx={{ fontWeight: 700 }}>
          {TYPE_LABELS[resource.resourceType] ?? resource.resourceType}
        </Typography>
        <Link component={RouterLink} to={link} sx={{ fontWeight: 600, minWidth: 0 }}>
          {isPatient ? (item.previous ? 'Updated' : 'Created') : title}
        </Link>
        {status && <StatusBadge status={status} />}
        {priority && priority !== 'routine' && <StatusBadge status={priority} />}
        <Typography variant="body2" sx={{ ml: 'auto', color: 'text.secondary' }}>
          {dateParts && <ListDate parts={dateParts} />}
          {byline ? ` · ${byline}` : ''}
        </Typography>
      </Box>
      <Box sx={{ mt: 1, display: 'flex', flexDirection: 'column', gap: 1 }}>
        {isPatient && item.previous && <VersionChanges item={item} />}
        {!isPatient && !messageText(resource).length && !attachmentsOf(resource).length && !summary.length && (
          <Typography variant="body2">Created</Typography>
        )}
        {summary.map((line, index) => (
          <Typography key={index} variant="body2">
            {line}
          </Typography>
        ))}
        {messageText(resource).map((text, index) => (
          <Typography key={index} variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>
            {text}
          </Typography>
        ))}
        {attachmentsOf(resource).map((attachment, index) => (
          <TimelineAttachment key={index} attachment={attachment} />
        ))}
        {report &&
          (reportOpen ? (
            // The view shows the report's own text (presentedForm) decoded, as the console's does.
            <DiagnosticReportView report={report} />
          ) : (
            <Box>
              <Button size="small" onClick={() => setReportOpen(true)}>
                Show report
              </Button>
            </Box>
          ))}
      </Box>
    </Paper>
  );
}
