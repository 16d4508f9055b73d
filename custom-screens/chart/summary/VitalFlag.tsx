import { Box } from '@mui/material';
import type { VitalDefinition } from '../../../config/clinical/vitals';
import { isCritical } from '../../../src/resources/DiagnosticReportView';
import { flagColour } from '../flagColour';
import { rangeFlag, rangeFor } from './rules/rangeFlag';
import type { VitalReading } from './rules/vitalReadings';

/**
 * A reading's flag in colour and word: 'Critical' (interpretation AA, LL, HH or A, app-spec §5)
 * in red, else 'High' / 'Low' against the reference range; nothing for a normal reading.
 */
export function VitalFlag({
  reading,
  definition,
  part,
}: {
  reading: VitalReading;
  definition: VitalDefinition;
  /** Names the part when a row has several ('Systolic High'). */
  part?: string;
}) {
  const critical = isCritical(reading.observation);
  const flag = critical ? 'Critical' : rangeFlag(reading.value, rangeFor(reading.observation, definition));
  if (!flag) return null;
  return (
    <Box
      component="span"
      data-flag={flag}
      sx={(theme) => ({
        fontWeight: 700,
        fontSize: '0.75rem',
        display: 'block',
        color: flagColour(theme, critical),
      })}
    >
      {part ? `${part} ${flag.toLowerCase()}` : flag}
    </Box>
  );
}
