import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import {
  Alert,
  Box,
  Button,
  FormControl,
  FormControlLabel,
  FormLabel,
  Grid,
  MenuItem,
  Paper,
  Radio,
  RadioGroup,
  TextField,
  Typography,
} from '@mui/material';
import type { Reference } from '@medplum/fhirtypes';
import { formatDateTime, formatHumanName, nameOfResource } from '../../data-provider/formatting';
import { normalizeErrorString, OperationOutcomeError } from '../../data-provider/outcomes';
import { ReferenceInput } from '../../src/datatypes/ReferenceInput';
import { canPerformOnType } from '../../src/resources/accessRules';
import { useFhirClient } from '../../src/resources/useFhirClient';
import { useToast } from '../../src/shell/toasts';
import { chartPath } from '../chart/chartPaths';
import { clashMessage } from './appointmentClashes';
import { APPOINTMENT_TYPES } from './appointmentTypes';
import { draftToAppointment } from './bookedAppointment';
import {
  DURATION_CHOICES,
  EMPTY_BOOKING_DRAFT,
  type BookingDraft,
  type BookingErrors,
  type BookingField,
} from './bookingDraft';
import { bookingDraftKey } from './bookingDraftKey';
import { bookingErrors } from './bookingErrors';
import { issuesByField } from './bookingIssues';
import { localDay } from '../../data-provider/rules';
import { slotOf } from './bookingSlot';
import { ClashWarning } from './ClashWarning';
import { HereTodaySection } from './HereTodaySection';
import { useBookAppointment } from './useBookAppointment';
import { useBookingDraft } from './useBookingDraft';
import { useClashCheck } from './useClashCheck';
import { usePatientChoice } from './usePatientChoice';

const PATIENT_PROFILE = ['http://hl7.org/fhir/StructureDefinition/Patient'];
const PRACTITIONER_PROFILE = ['http://hl7.org/fhir/StructureDefinition/Practitioner'];
/** The Duration select's value for "the length is given by an end time". */
const BY_END_TIME = 'endTime';

export const BOOKED_TOAST = 'Appointment booked';
export const REQUESTED_TOAST = 'Appointment requested';

/** Element ids, so that a failed submit can move focus to the first field to fix. */
const FIELD_IDS: Record<BookingField, string> = {
  patient: 'field-booking-patient',
  clinician: 'field-booking-clinician',
  date: 'booking-date',
  startTime: 'booking-startTime',
  duration: 'booking-duration',
  endTime: 'booking-endTime',
  appointmentType: 'booking-appointmentType',
  description: 'booking-description',
};
const FIELD_ORDER = Object.keys(FIELD_IDS) as BookingField[];

function focusFirst(errors: BookingErrors) {
  const first = FIELD_ORDER.find((field) => errors[field]);
  if (first) document.getElementById(FIELD_IDS[first])?.focus();
}

const timeOf = (value: Date) => formatDateTime(value.toISOString(), undefined, { hour: 'numeric', minute: '2-digit' });

interface Warning {
  title: string;
  lines: string[];
}

/**
 * `/appointments/new` (optionally `?patient=Patient/{id}` from a chart): the front desk books an
 * appointment, or records a request, for a patient with a clinician. The rules are checked under
 * each field, the diaries for clashes just before the save; the draft survives a reload and a
 * failed save until the appointment is made.
 */
export function AppointmentBookingPage() {
  const client = useFhirClient();
  const navigate = useNavigate();
  const toast = useToast();
  const [params] = useSearchParams();
  const me = client.getProfile();
  const account = me ? `${me.resourceType}/${me.id}` : undefined;
  const freshDraft = (): BookingDraft => ({
    ...EMPTY_BOOKING_DRAFT,
    date: localDay(new Date()),
    // Clinicians mostly book for themselves; the front desk chooses. Front-desk staff are Practitioners
    // too, so what tells a clinician is being allowed to record findings (Observation create).
    clinician:
      me?.resourceType === 'Practitioner' &&
      canPerformOnType(client.getAccessPolicy(), client.isSuperAdmin(), 'Observation', 'create')
        ? { reference: account, display: formatHumanName(me.name?.[0]) || nameOfResource(me) }
        : undefined,
  });
  const { draft, update, forget } = useBookingDraft(bookingDraftKey(account), freshDraft);
  const preselected = usePatientChoice(params.get('patient'));
  const checkClashes = useClashCheck();
  const book = useBookAppointment();
  const [errors, setErrors] = useState<BookingErrors>({});
  const [general, setGeneral] = useState<string[]>([]);
  const [warning, setWarning] = useState<Warning>();
  const [checking, setChecking] = useState(false);
  const busy = checking || book.isPending;

  // A chart's link names the patient: it replaces the draft's, once it arrives and again when its
  // name loads; a patient chosen on the page afterwards stays.
  const preselectedReference = preselected?.reference;
  const preselectedDisplay = preselected?.display;
  useEffect(() => {
    if (!preselectedReference) return;
    update((current) => ({
      ...current,
      patient: { reference: preselectedReference, ...(preselectedDisplay ? { display: preselectedDisplay } : {}) },
    }));
  }, [preselectedReference, preselectedDisplay, update]);

  const change = (changes: Partial<BookingDraft>, fields: BookingField[]) => {
    update((current) => ({ ...current, ...changes }));
    setErrors((current) => {
      const next = { ...current };
      for (const field of fields) delete next[field];
      return next;
    });
    // The warning was about the slot and the people it was shown for: any change asks again.
    setWarning(undefined);
  };

  const slot = slotOf(draft);
  const requesting = draft.kind === 'proposed';

  async function save() {
    const found = slotOf(draft);
    if (!found) return;
    const appointment = draftToAppointment(draft, found);
    setGeneral([]);
    try {
      await book.mutateAsync(appointment);
      forget();
      toast.success(requesting ? REQUESTED_TOAST : BOOKED_TOAST);
      const patientId = draft.patient?.reference?.slice('Patient/'.length) ?? '';
      navigate(chartPath(patientId, 'Appointment'));
    } catch (error) {
      setWarning(undefined);
      if (error instanceof OperationOutcomeError) {
        const mapped = issuesByField(error.outcome.issue ?? [], draft);
        setErrors(mapped.fields);
        setGeneral(mapped.general);
        focusFirst(mapped.fields);
      } else {
        setGeneral([normalizeErrorString(error)]);
      }
      toast.error(error, { persist: true });
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const local = bookingErrors(draft, new Date());
    setErrors(local);
    setGeneral([]);
    if (Object.keys(local).length > 0) {
      focusFirst(local);
      return;
    }
    const found = slotOf(draft);
    const clinician = draft.clinician?.reference;
    const patient = draft.patient?.reference;
    if (!found || !clinician || !patient) return;
    setChecking(true);
    try {
      const check = await checkClashes(found, { clinician, patient });
      if (check.clashes.length) {
        const names = {
          clinician: draft.clinician?.display || check.names.get(clinician) || 'The clinician',
          patient: draft.patient?.display || check.names.get(patient) || 'The patient',
        };
        setWarning({
          title: 'This time clashes',
          lines: check.clashes.map((clash) => clashMessage(clash, names, check.names)),
        });
        return;
      }
    } catch (error) {
      // Not knowing about a clash is no reason to refuse the booking: say so and let the desk decide.
      setWarning({
        title: 'Clashes could not be checked',
        lines: [`The diaries could not be searched: ${normalizeErrorString(error)}`],
      });
      return;
    } finally {
      setChecking(false);
    }
    await save();
  }

  const fieldProps = (field: BookingField, label: string) => ({
    id: FIELD_IDS[field],
    label,
    fullWidth: true,
    size: 'small' as const,
    error: !!errors[field],
    helperText: errors[field] ?? ' ',
  });

  const reference = (field: 'patient' | 'clinician', label: string, profiles: string[]) => (
    <ReferenceInput
      label={label}
      path={`booking.${field}`}
      targetProfiles={profiles}
      value={draft[field]}
      onChange={(value: Reference | undefined) =>
        change(field === 'patient' ? { patient: value } : { clinician: value }, [field])
      }
      required
      error={errors[field]}
    />
  );

  const lengthValue = draft.endBy === 'endTime' ? BY_END_TIME : draft.duration;
  const durationHelp = errors.duration ?? (slot && draft.endBy === 'duration' ? `Ends at ${timeOf(slot.end)}` : ' ');

  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 900 }}>
      <Typography variant="h5" component="h1" gutterBottom>
        New appointment
      </Typography>
      {/* Who is already here: the desk books walk-ins and follow-ups with the waiting room in view. */}
      <HereTodaySection />
      <Paper
        variant="outlined"
        component="form"
        noValidate
        aria-label="New appointment"
        onSubmit={(event) => void submit(event)}
        sx={{ p: { xs: 1.5, sm: 2 } }}
      >
        {general.length > 0 && (
          <Alert severity="error" sx={{ mb: 2, whiteSpace: 'pre-line' }}>
            {general.map((line) => (
              <div key={line}>{line}</div>
            ))}
          </Alert>
        )}
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 6 }}>{reference('patient', 'Patient', PATIENT_PROFILE)}</Grid>
          <Grid size={{ xs: 12, sm: 6 }}>{reference('clinician', 'Clinician', PRACTITIONER_PROFILE)}</Grid>
          <Grid size={{ xs: 12, sm: 4 }}>
            <TextField
              {...fieldProps('date', 'Date')}
              type="date"
              required
              value={draft.date}
              onChange={(event) => change({ date: event.target.value }, ['date', 'startTime'])}
              slotProps={{ inputLabel: { shrink: true } }}
            />
          </Grid>
          <Grid size={{ xs: 6, sm: 4 }}>
            <TextField
              {...fieldProps('startTime', 'Start time')}
              type="time"
              required
              value={draft.startTime}
              onChange={(event) => change({ startTime: event.target.value }, ['startTime', 'date', 'endTime'])}
              slotProps={{ inputLabel: { shrink: true } }}
            />
          </Grid>
          <Grid size={{ xs: 6, sm: 4 }}>
            <TextField
              {...fieldProps('duration', 'Duration')}
              helperText={durationHelp}
              select
              value={lengthValue}
              onChange={(event) =>
                change(
                  event.target.value === BY_END_TIME
                    ? { endBy: 'endTime' }
                    : { endBy: 'duration', duration: event.target.value },
                  ['duration', 'endTime'],
                )
              }
            >
              {DURATION_CHOICES.map((minutes) => (
                <MenuItem key={minutes} value={String(minutes)}>
                  {minutes} min
                </MenuItem>
              ))}
              {/* A restored draft may hold another length: show it rather than an empty select. */}
              {!DURATION_CHOICES.some((minutes) => String(minutes) === draft.duration) && draft.duration && (
                <MenuItem value={draft.duration}>{draft.duration} min</MenuItem>
              )}
              <MenuItem value={BY_END_TIME}>Set an end time</MenuItem>
            </TextField>
          </Grid>
          {draft.endBy === 'endTime' && (
            <Grid size={{ xs: 6, sm: 4 }} sx={{ ml: { sm: 'auto' } }}>
              <TextField
                {...fieldProps('endTime', 'End time')}
                type="time"
                required
                value={draft.endTime}
                onChange={(event) => change({ endTime: event.target.value }, ['endTime'])}
                slotProps={{ inputLabel: { shrink: true } }}
              />
            </Grid>
          )}
          <Grid size={12}>
            <TextField
              {...fieldProps('appointmentType', 'Appointment type')}
              select
              value={draft.appointmentType}
              onChange={(event) => change({ appointmentType: event.target.value }, ['appointmentType'])}
            >
              <MenuItem value="">
                <em>Not given</em>
              </MenuItem>
              {APPOINTMENT_TYPES.map((option) => (
                <MenuItem key={option.code} value={option.code}>
                  {option.display}
                </MenuItem>
              ))}
            </TextField>
          </Grid>
          <Grid size={12}>
            <TextField
              {...fieldProps('description', 'Reason / description')}
              multiline
              minRows={2}
              value={draft.description}
              onChange={(event) => change({ description: event.target.value }, ['description'])}
            />
          </Grid>
          <Grid size={12}>
            <FormControl>
              <FormLabel id="booking-kind-label">Booking</FormLabel>
              <RadioGroup
                row
                aria-labelledby="booking-kind-label"
                value={draft.kind}
                onChange={(event) =>
                  change({ kind: event.target.value === 'proposed' ? 'proposed' : 'booked' }, ['date', 'startTime'])
                }
              >
                <FormControlLabel value="booked" control={<Radio />} label="Booked" />
                <FormControlLabel value="proposed" control={<Radio />} label="Request (to be confirmed)" />
              </RadioGroup>
            </FormControl>
          </Grid>
        </Grid>
        {warning && (
          <Box sx={{ mt: 2 }}>
            <ClashWarning
              title={warning.title}
              lines={warning.lines}
              proceedLabel={requesting ? 'Request anyway' : 'Book anyway'}
              busy={busy}
              onProceed={() => void save()}
              onChangeTime={() => {
                setWarning(undefined);
                document.getElementById(FIELD_IDS.startTime)?.focus();
              }}
            />
          </Box>
        )}
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1 }}>
          <Button type="submit" variant="contained" disabled={busy || !!warning}>
            {book.isPending
              ? 'Saving…'
              : checking
                ? 'Checking…'
                : requesting
                  ? 'Request appointment'
                  : 'Book appointment'}
          </Button>
          <Button
            disabled={busy}
            onClick={() => {
              update(freshDraft);
              setErrors({});
              setGeneral([]);
              setWarning(undefined);
            }}
          >
            Clear
          </Button>
        </Box>
      </Paper>
    </Box>
  );
}
