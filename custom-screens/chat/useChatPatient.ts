import { useCallback, useEffect, useRef, useState } from 'react';
import type { Communication, Patient } from '@medplum/fhirtypes';
import { formatHumanName } from '../../data-provider/formatting';
import { normalizeErrorString } from '../../data-provider/outcomes';
import { useShellClient } from '../../src/shell';
import type { VitalStatus } from '../../data-provider/rules';

export interface ChatPatient {
  patientId?: string;
  /** The patient's name, the chat's title. */
  name?: string;
  /** Whether and when the patient died: a deceased patient's conversation takes no new messages. */
  vitalStatus?: VitalStatus;
  loading: boolean;
  error?: string;
}

export interface ChatPatientState extends ChatPatient {
  /**
   * Reads the patient again past the cache and shows what it says: a death recorded by someone else
   * while this conversation stayed open is known before a message goes out.
   */
  recheck(): Promise<VitalStatus | undefined>;
}

function vitalStatusOf(patient: Patient): VitalStatus {
  return { deceasedBoolean: patient.deceasedBoolean, deceasedDateTime: patient.deceasedDateTime };
}

/** The patient a chat is with: given by the route, or the subject of the message the route names. */
export function useChatPatient(patientId: string | undefined, communicationId: string | undefined): ChatPatientState {
  const client = useShellClient();
  const [state, setState] = useState<ChatPatient>({ loading: true });
  const shownId = useRef<string | undefined>(undefined);
  useEffect(() => {
    let active = true;
    shownId.current = undefined;
    setState({ loading: true });
    (async () => {
      let id = patientId;
      if (!id && communicationId) {
        const message = await client.readResource('Communication', communicationId);
        const subject = (message as Communication).subject?.reference ?? '';
        if (!subject.startsWith('Patient/')) throw new Error('This message is not about a patient');
        id = subject.slice('Patient/'.length);
      }
      if (!id) throw new Error('Patient ID not found');
      const patient = (await client.readResource('Patient', id)) as Patient;
      return {
        patientId: id,
        name: formatHumanName(patient.name?.[0]) || `Patient/${id}`,
        vitalStatus: vitalStatusOf(patient),
      };
    })().then(
      (found) => {
        if (!active) return;
        shownId.current = found.patientId;
        setState({ ...found, loading: false });
      },
      (error: unknown) => active && setState({ loading: false, error: normalizeErrorString(error) }),
    );
    return () => void (active = false);
  }, [client, patientId, communicationId]);

  const recheck = useCallback(async () => {
    const id = shownId.current;
    if (!id) return undefined;
    const patient = (await client.readResource('Patient', id, { cache: 'no-store' })) as Patient;
    const vitalStatus = vitalStatusOf(patient);
    // The route may have moved to another patient while the read was out.
    if (shownId.current === id) setState((shown) => ({ ...shown, vitalStatus }));
    return vitalStatus;
  }, [client]);

  return { ...state, recheck };
}
