import { useId, useState } from 'react';
import { Button, MenuItem, TextField, Typography } from '@mui/material';
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
import { useSummaryForm } from './useSummaryForm';
import { useSummarySaved } from './useSummarySave';

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
      await (existing ? client.updateResource(built.request) : client.createResource(built.request));
      await saved('medications', 'MedicationRequest', existing ? 'Medication updated' : 'Medication added');
    },
  });
  const open = (request: MedicationRequest) => form.open(request.id as string, () => medicationDraftOf(request, names));
  const draft = form.modal.draft;
  const editing = form.modal.openKey !== undefined && form.modal.openKey !== 'new';
  return (
    <SummarySection
      editable={editable}
      title="Medications"
      actionLabel="Add medication"
      onAction={() => form.open('new', () => medicationDraftOf(undefined))}
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
            onClose={form.modal.close}
            onCancel={form.modal.discard}
            onSave={form.submit}
          >
            <ConceptField
              label="Medication"
              required
              autoFocus
              source={MEDICATION_CONCEPTS}
              text={draft.medication}
              chosen={draft.medicationConcept}
              onTextChange={(medication) => form.change({ medication })}
              onChoose={(chosen) => form.change({ medication: chosen.label, medicationConcept: chosen })}
              error={form.fieldErrors.medication}
            />
            <TextField
              select
              label="Status"
              required
              value={draft.status}
              onChange={(e) => form.change({ status: e.target.value as MedicationDraft['status'] })}
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
  const { order } = props.group;
  const authored = readableDate(order.authoredOn);
  const secondary = [authored ? `Ordered ${authored}` : '', otherOrdersNote(props.group)].filter(Boolean).join(' · ');
  return (
    <SummaryItem
      editable={props.editable}
      primary={medicationNameOf(order, props.names) || 'Unnamed medication'}
      secondary={secondary || undefined}
      status={order.status}
      action="Edit medication"
      onOpen={() => props.onOpen(order)}
    />
  );
}
