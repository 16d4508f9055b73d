import { styled } from '@mui/material/styles';
import type { ListDateParts } from './listDateParts';

/**
 * A date in a chart list, as `<time>`: one unbroken line, so that the row's words wrap around it
 * rather than the date ("Oct 4," above "1977, 9:51 PM" reads as two values). A list that is too
 * narrow for that sets `white-space: normal` on it: the time of day may then go below the day,
 * and still neither breaks inside.
 */
const Time = styled('time')({ whiteSpace: 'nowrap' });
const Part = styled('span')({ whiteSpace: 'nowrap' });

export function ListDate({ parts }: { parts: ListDateParts }) {
  const { day, time } = parts;
  return (
    <Time dateTime={parts.dateTime}>
      {day && <Part>{time ? `${day},` : day}</Part>}
      {day && time ? ' ' : null}
      {time && <Part>{time}</Part>}
    </Time>
  );
}
