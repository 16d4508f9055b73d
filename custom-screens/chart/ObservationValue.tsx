import { Box } from '@mui/material';
import { flagColour } from './flagColour';
import type { ObservationValueCell } from './observationValueCell';

const ARROWS = { high: '↑ ', low: '↓ ' } as const;
/** A number and the unit after it never part ('136/82' over 'mmHg' reads as two values). */
const keepUnitWithNumber = (text: string) => text.replace(/(\d) (?=\S)/g, '$1\u00a0');

/**
 * An observation's value in a chart list: bold in the flag's colour when it is critical, high or
 * low, with the flag in a word under it (colour alone would not tell a colour-blind reader, and
 * the word is what a screen reader reads); the arrow only repeats the word for the eye.
 */
export function ObservationValue({ cell }: { cell: ObservationValueCell }) {
  const { flag, word, text } = cell;
  const colour = flag
    ? { color: (theme: Parameters<typeof flagColour>[0]) => flagColour(theme, flag === 'critical') }
    : {};
  return (
    <Box component="span" data-flag={flag} sx={{ display: 'inline-block' }}>
      <Box component="span" sx={flag ? { fontWeight: 700, ...colour } : undefined}>
        {keepUnitWithNumber(text)}
      </Box>
      {word && (
        <Box
          component="span"
          data-flag-word
          sx={{
            display: 'block',
            fontSize: '0.75rem',
            fontWeight: flag ? 700 : 400,
            ...(flag ? colour : { color: 'text.secondary' }),
          }}
        >
          {flag && flag !== 'critical' && <span aria-hidden="true">{ARROWS[flag]}</span>}
          {word}
        </Box>
      )}
    </Box>
  );
}
