import { Avatar, Box, Chip, Skeleton, Tooltip, Typography } from '@mui/material';
import FemaleIcon from '@mui/icons-material/Female';
import MaleIcon from '@mui/icons-material/Male';
import TransgenderIcon from '@mui/icons-material/Transgender';
import QuestionMarkIcon from '@mui/icons-material/QuestionMark';
import type { Patient } from '@medplum/fhirtypes';
import { formatHumanName } from '../../../data-provider/formatting';
import { choosePhoto, imageSource, isDeceased } from '../../../data-provider/rules';
import { useFhirClient } from '../../../src/resources/useFhirClient';
import { birthLine } from './rules/birthLine';
import { avatarColor, bandColor, initialsOf } from './patientLook';
import { OpenTasksLink, type OpenTasksLinkProps } from './OpenTasksLink';
import { SummaryLink } from './SummaryLink';
import { VisuallyHidden } from './VisuallyHidden';

/** A header link to a list of the chart, with how many there are (undefined while they load). */
export interface CountLink {
  href: string;
  count?: number;
}

export interface SummaryHeaderProps {
  patient: Patient;
  /** The general practitioner line (a name, or why there is none); undefined while it is looked up. */
  provider: string | undefined;
  /** Undefined when the caller may not search appointments: no link to a list they cannot open. */
  appointments?: CountLink;
  /** Undefined when the caller may not search visits. */
  visits?: CountLink;
  /** The patient's open tasks; undefined when the caller may not search tasks (no line at all). */
  openTasks?: OpenTasksLinkProps;
  /** Below 900 px, above the tabs: one band across the width instead of a centred column. */
  compact?: boolean;
}

function GenderIcon({ gender }: { gender: Patient['gender'] }) {
  const label = gender ? `Gender: ${gender}` : 'Gender not recorded';
  const Icon =
    gender === 'female'
      ? FemaleIcon
      : gender === 'male'
        ? MaleIcon
        : gender === 'other'
          ? TransgenderIcon
          : QuestionMarkIcon;
  return (
    <Tooltip title={label}>
      <Icon role="img" aria-label={label} aria-hidden={false} fontSize="small" />
    </Tooltip>
  );
}

function countText(count: number | undefined, one: string, many: string): string {
  if (count === undefined) return many.charAt(0).toUpperCase() + many.slice(1);
  return `${count}${count >= 100 ? '+' : ''} ${count === 1 ? one : many}`;
}

/**
 * Who this is: colour band, avatar, name, birth date with age, GP, gender; links to appointments and
 * visits, and what is still to do for the patient (open tasks).
 */
export function SummaryHeader(props: SummaryHeaderProps) {
  const { patient } = props;
  const name = formatHumanName(patient.name?.[0]) || 'Unnamed patient';
  const client = useFhirClient();
  const photo = imageSource(choosePhoto(patient), (address) => client.fileAddress(address));
  const avatar = (size: number) => (
    <Avatar
      src={photo}
      alt={name}
      sx={{
        width: size,
        height: size,
        border: 3,
        borderColor: 'background.paper',
        fontSize: size * 0.375,
        color: '#fff',
        bgcolor: avatarColor(patient.id ?? name),
        flexShrink: 0,
      }}
    >
      {initialsOf(name)}
    </Avatar>
  );
  const nameLine = (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, minWidth: 0 }}>
      <Typography
        component="h2"
        variant="h6"
        sx={{ textAlign: props.compact ? 'left' : 'center', overflowWrap: 'anywhere' }}
      >
        {name}
      </Typography>
      <GenderIcon gender={patient.gender} />
      {/* Seen before anything else is read: a chart of someone who has died is not a visit to plan. */}
      {isDeceased(patient) && (
        <Chip
          size="small"
          label="Deceased"
          sx={{ fontWeight: 600, bgcolor: 'text.primary', color: 'background.paper', height: 22 }}
        />
      )}
    </Box>
  );
  const provider = (
    <Typography variant="body2" color="text.secondary">
      {props.provider ?? (
        <>
          <Skeleton width={140} sx={{ display: 'inline-block' }} />
          <VisuallyHidden>Loading provider...</VisuallyHidden>
        </>
      )}
    </Typography>
  );
  const countLinks = (props.appointments || props.visits) && (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2, mt: props.compact ? 0 : 0.5 }}>
      {props.appointments && (
        <SummaryLink href={props.appointments.href} variant="body2">
          {countText(props.appointments.count, 'upcoming appointment', 'upcoming appointments')}
        </SummaryLink>
      )}
      {props.visits && (
        <SummaryLink href={props.visits.href} variant="body2">
          {countText(props.visits.count, 'documented visit', 'documented visits')}
        </SummaryLink>
      )}
    </Box>
  );
  const tasks = props.openTasks && <OpenTasksLink {...props.openTasks} overdueAsAlarm={!isDeceased(patient)} />;
  if (props.compact) {
    // One band across the chart: who this is on the left, where to go on the right.
    return (
      <Box component="header">
        <Box aria-hidden sx={{ height: 8, bgcolor: bandColor(patient.id ?? name) }} />
        <Box sx={{ px: 2, py: 1, display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: 2, rowGap: 1 }}>
          {avatar(48)}
          <Box sx={{ flex: '1 1 220px', minWidth: 0 }}>
            {nameLine}
            <Typography variant="body2" color="text.secondary">
              {birthLine(patient)}
            </Typography>
            {provider}
          </Box>
          <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 0.25 }}>
            {countLinks}
            {tasks}
          </Box>
        </Box>
      </Box>
    );
  }
  return (
    <Box component="header">
      <Box aria-hidden sx={{ height: 40, bgcolor: bandColor(patient.id ?? name) }} />
      <Box
        sx={{
          px: 2,
          pb: 1.5,
          mt: -3,
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          textAlign: 'center',
          gap: 0.5,
        }}
      >
        {avatar(64)}
        {nameLine}
        <Typography variant="body2" color="text.secondary">
          {birthLine(patient)}
        </Typography>
        {provider}
        {countLinks}
        {tasks}
      </Box>
    </Box>
  );
}
