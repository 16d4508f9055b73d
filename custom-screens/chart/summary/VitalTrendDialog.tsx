import { lazy, Suspense } from 'react';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { VitalDefinition } from '../../../config/clinical/vitals';
import type { VitalReading } from './rules/vitalReadings';
import { readableDate } from '../../../data-provider/formatting';
import { displayNumber, displayUnit, type VitalRow } from './vitalRows';
import { VitalFlag } from './VitalFlag';

const VitalTrendChart = lazy(() => import('./VitalTrendChart'));

export interface VitalTrendDialogProps {
  row: VitalRow;
  readings: Map<string, VitalReading[]>;
  onClose(): void;
}

function rangeText(definition: VitalDefinition): string {
  const range = definition.referenceRange;
  return range
    ? `${definition.label}: ${range.low}–${range.high} ${displayUnit(definition.unit)}`
    : `${definition.label}: no fixed range (depends on age and sex)`;
}

/** A vital over time: the chart with its reference range, and the readings as a table. */
export function VitalTrendDialog({ row, readings, onClose }: VitalTrendDialogProps) {
  const series = row.series.map((definition) => ({ definition, readings: readings.get(definition.key) ?? [] }));
  const titleId = `vital-trend-${row.id}`;
  // Newest first in the table, as a clinician reads a list of results.
  const rows = series
    .flatMap((s) => s.readings.map((reading) => ({ definition: s.definition, reading })))
    .sort((a, b) => b.reading.time - a.reading.time);
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>{row.label} over time</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary">
          Reference range (adult) — {series.map((s) => rangeText(s.definition)).join('; ')}
        </Typography>
        <Box sx={{ minHeight: 280 }}>
          {rows.length === 0 ? (
            <Typography sx={{ py: 4 }}>No readings yet.</Typography>
          ) : (
            <Suspense fallback={<Typography sx={{ py: 4 }}>Loading chart...</Typography>}>
              <VitalTrendChart series={series} />
            </Suspense>
          )}
        </Box>
        {rows.length > 0 ? (
          <Table size="small" aria-label={`${row.label} readings`}>
            <TableHead>
              <TableRow>
                <TableCell>Date</TableCell>
                {series.length > 1 ? <TableCell>Part</TableCell> : null}
                <TableCell>Value</TableCell>
                <TableCell>Status</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map(({ definition, reading }) => (
                <TableRow key={`${definition.key}-${reading.observation.id}-${reading.time}`}>
                  <TableCell>{readableDate(reading.date)}</TableCell>
                  {series.length > 1 ? <TableCell>{definition.label}</TableCell> : null}
                  <TableCell>
                    {displayNumber(reading.value)} {displayUnit(reading.unit)}{' '}
                    <VitalFlag reading={reading} definition={definition} />
                  </TableCell>
                  <TableCell>{reading.observation.status}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
