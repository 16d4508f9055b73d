import { useId, useRef, useState } from 'react';
import { Alert, AlertTitle, Box, Button, MenuItem, TextField, Typography } from '@mui/material';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import type { MedicationRequest, Patient } from '@medplum/fhirtypes';
import { MEDICATION_REQUEST_STATUSES } from '../../../config/clinical/medicationStatus';
import { MEDICATION_CONCEPTS } from '../../../config/clinical/recordedConcepts';
import { getDisplayString } from '../../../data-provider/formatting';
import { useFhirClient } from '../../../src/resources/useFhirClient';
import type { ReferenceNames } from '../referenceNames';
import {
  buildMedicationRequest,
  medicationDraftOf,
  medicationNameOf,
  validateMedication,
  type MedicationDraft,
} from './rules/medicationRules';
import { medicationListOf, otherOrdersNote, type MedicationGroup } from './rules/medicationGroups';
import { readableDate } from '../../../data-provider/formatting';
import { ConceptField } from './ConceptField';
import { SummaryDialog } from './SummaryDialog';
import { SummaryItem, SummaryList } from './SummaryItem';
import { SummarySection } from './SummarySection';
import { useMayRecord } from './useMayRecord';
import type { SummaryList as Loaded } from './usePatientSummaryData';
import { SaveHeld, useSummaryForm } from './useSummaryForm';
import { useSummarySaved } from './useSummarySave';
import { hasWarnings, useMedicationOrderCheck, type OrderWarnings } from './useMedicationOrderCheck';
import { STATUS_BADGE_PALETTE } from '../../../src/datatypes/StatusBadge';

const PATHS: Record<string, keyof MedicationDraft> = {
  'MedicationRequest.medication': 'medication',
  'MedicationRequest.medicationCodeableConcept': 'medication',
  'MedicationRequest.status': 'status',
};

/** Medications (MedicationRequests of the patient) with the add/edit modal; the requester is the signed-in profile. */
export function MedicationsSection(props: { patient: Patient; medications: Loaded<MedicationRequest> }) {
  const client = useFhirClient();
  const saved = useSummarySaved(props.patient.id as string);
  const editable = useMayRecord('MedicationRequest');
  const patientRef = { reference: `Patient/${props.patient.id}` };
  const { names } = props.medications;
  const list = medicationListOf(props.medications.items, names);
  const [pastShown, setPastShown] = useState(false);
  const pastId = useId();
  // Every order stays editable by its id, whichever row (or folded group) it is in.
  const byId = new Map(props.medications.items.map((m) => [m.id as string, m]));
  const check = useMedicationOrderCheck(props.patient);
  // Before an order is written: another active order of it, an allergy it may set off. The
  // clinician sees what was found and adds it anyway or not; what they confirmed is this order as
  // it was then (a change to the form asks again).
  const [warnings, setWarnings] = useState<OrderWarnings | undefined>();
  const shownFor = useRef<string | undefined>(undefined);
  const confirmedFor = useRef<string | undefined>(undefined);
  const form = useSummaryForm<MedicationDraft>({
    validate: validateMedication,
    paths: PATHS,
    save: async (draft, key) => {
      const existing = byId.get(key);
      const profile = client.getProfile();
      const requester: MedicationRequest['requester'] = profile?.id
        ? { reference: `${profile.resourceType}/${profile.id}`, display: getDisplayString(profile) }
        : undefined;
      const built = buildMedicationRequest(draft, patientRef, requester, existing, undefined, names);
      if ('error' in built) throw new Error(built.error);
      const order = built.request;
      const signature = JSON.stringify([key, order.status, order.medicationCodeableConcept, order.medicationReference]);
      if (confirmedFor.current !== signature) {
        const found = await check(order, existing, names);
        if (hasWarnings(found)) {
          shownFor.current = signature;
          setWarnings(found);
          throw new SaveHeld();
        }
      }
      await (existing ? client.updateResource(order) : client.createResource(order));
      clearWarnings();
      await saved('medications', 'MedicationRequest', existing ? 'Medication updated' : 'Medication added');
    },
  });
  function clearWarnings() {
    setWarnings(undefined);
    shownFor.current = undefined;
    confirmedFor.current = undefined;
  }
  const open = (request: MedicationRequest) => {
    clearWarnings();
    form.open(request.id as string, () => medicationDraftOf(request, names));
  };
  const change = (patch: Partial<MedicationDraft>) => {
    clearWarnings();
    form.change(patch);
  };
  const draft = form.modal.draft;
  const editing = form.modal.openKey !== undefined && form.modal.openKey !== 'new';
  return (
    <SummarySection
      editable={editable}
      title="Medications"
      actionLabel="Add medication"
      onAction={() => {
        clearWarnings();
        form.open('new', () => medicationDraftOf(undefined));
      }}
      loading={props.medications.loading}
      error={props.medications.error}
      isEmpty={list.current.length === 0 && list.past.length === 0}
      emptyText="No medications recorded"
      modal={
        draft ? (
          <SummaryDialog
            title={editing ? 'Edit medication' : 'Add medication'}
            open
            saving={form.saving}
            errors={form.generalErrors}
            onClose={() => {
              clearWarnings();
              form.modal.close();
            }}
            onCancel={() => {
              clearWarnings();
              form.modal.discard();
            }}
            onSave={form.submit}
            notice={warnings ? <OrderWarningsNotice warnings={warnings} /> : undefined}
            confirm={
              warnings
                ? {
                    label: editing ? 'Save anyway' : 'Add anyway',
                    onConfirm: () => {
                      confirmedFor.current = shownFor.current;
                      void form.submit();
                    },
                  }
                : undefined
            }
          >
            <ConceptField
              label="Medication"
              required
              autoFocus
              source={MEDICATION_CONCEPTS}
              text={draft.medication}
              chosen={draft.medicationConcept}
              onTextChange={(medication) => change({ medication })}
              onChoose={(chosen) => change({ medication: chosen.label, medicationConcept: chosen })}
              error={form.fieldErrors.medication}
            />
            <TextField
              select
              label="Status"
              required
              value={draft.status}
              onChange={(e) => change({ status: e.target.value as MedicationDraft['status'] })}
              error={!!form.fieldErrors.status}
              helperText={form.fieldErrors.status}
            >
              {MEDICATION_REQUEST_STATUSES.map((status) => (
                <MenuItem key={status} value={status}>
                  {status}
                </MenuItem>
              ))}
            </TextField>
          </SummaryDialog>
        ) : null
      }
    >
      <SummaryList>
        {(list.foldPast ? list.current : [...list.current, ...list.past]).map((group) => (
          <MedicationRow key={group.order.id} group={group} names={names} onOpen={open} editable={editable} />
        ))}
      </SummaryList>
      {list.foldPast && (
        <>
          {list.current.length === 0 && (
            <Typography variant="body2" color="text.secondary">
              No current medications
            </Typography>
          )}
          <Button
            size="small"
            onClick={() => setPastShown((shown) => !shown)}
            aria-expanded={pastShown}
            aria-controls={pastShown ? pastId : undefined}
            sx={{ mt: 0.5, textTransform: 'none' }}
          >
            {pastShown ? 'Hide past medications' : `Show ${list.past.length} past medications`}
          </Button>
          {pastShown && (
            <div id={pastId}>
              <SummaryList>
                {list.past.map((group) => (
                  <MedicationRow key={group.order.id} group={group} names={names} onOpen={open} editable={editable} />
                ))}
              </SummaryList>
            </div>
          )}
        </>
      )}
    </SummarySection>
  );
}

/** One medication: its row's order (status, date, edit) and how many other orders of it there are. */
function MedicationRow(props: {
  group: MedicationGroup;
  names: ReferenceNames;
  onOpen(request: MedicationRequest): void;
  editable: boolean;
}) {
  const { order, activeOrders } = props.group;
  const authored = readableDate(order.authoredOn);
  const secondary = [authored ? `Ordered ${authored}` : '', otherOrdersNote(props.group)].filter(Boolean).join(' · ');
  return (
    <SummaryItem
      editable={props.editable}
      primary={medicationNameOf(order, props.names) || 'Unnamed medication'}
      secondary={
        activeOrders > 1 ? (
          <>
            {secondary}
            <ConcurrentOrders count={activeOrders} />
          </>
        ) : (
          secondary || undefined
        )
      }
      status={order.status}
      action="Edit medication"
      onOpen={() => props.onOpen(order)}
    />
  );
}

/** "2 active orders" under each of them, in the warning colour (AA contrast, as the yellow badges). */
function ConcurrentOrders({ count }: { count: number }) {
  return (
    <Box
      component="span"
      data-concurrent-orders={count}
      sx={(theme) => {
        const [background, text] =
          theme.palette.mode === 'dark' ? STATUS_BADGE_PALETTE.yellow.dark : STATUS_BADGE_PALETTE.yellow.light;
        return {
          display: 'flex',
          width: 'fit-content',
          alignItems: 'center',
          gap: 0.5,
          mt: 0.25,
          px: 0.75,
          borderRadius: 1,
          bgcolor: background,
          color: text,
          fontWeight: 600,
        };
      }}
    >
      <WarningAmberIcon sx={{ fontSize: 14 }} aria-hidden />
      {`${count} active orders of this medication`}
    </Box>
  );
}

/** What the checks found before the order is saved, and what they are not. */
function OrderWarningsNotice({ warnings }: { warnings: OrderWarnings }) {
  return (
    <Box data-order-warnings>
      {warnings.allergies.length > 0 && (
        <Alert severity="error" sx={{ mb: 1 }}>
          <AlertTitle>Check before adding</AlertTitle>
          {warnings.allergies.map((message) => (
            <div key={message}>{message}</div>
          ))}
          <Typography variant="caption" component="div" sx={{ mt: 0.5 }}>
            A simple check of names and a few drug classes (penicillins, cephalosporins, sulfonamide antibiotics), not a
            drug-interaction database.
          </Typography>
        </Alert>
      )}
      {warnings.duplicates.length > 0 && (
        <Alert severity="warning" sx={{ mb: 1 }}>
          {warnings.duplicates.map((message) => (
            <div key={message}>{message}</div>
          ))}
        </Alert>
      )}
      {warnings.unchecked.length > 0 && (
        <Alert severity="warning" sx={{ mb: 1 }}>
          {warnings.unchecked.map((message) => (
            <div key={message}>{message}</div>
          ))}
        </Alert>
      )}
    </Box>
  );
}
