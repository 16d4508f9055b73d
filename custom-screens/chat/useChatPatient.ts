import { useEffect, useState } from 'react';
import type { Communication, Patient } from '@medplum/fhirtypes';
import { formatHumanName } from '../../data-provider/formatting';
import { normalizeErrorString } from '../../data-provider/outcomes';
import { useShellClient } from '../../src/shell';

export interface ChatPatient {
  patientId?: string;
  /** The patient's name, the chat's title. */
  name?: string;
  loading: boolean;
  error?: string;
}

/** The patient a chat is with: given by the route, or the subject of the message the route names. */
export function useChatPatient(patientId: string | undefined, communicationId: string | undefined): ChatPatient {
  const client = useShellClient();
  const [state, setState] = useState<ChatPatient>({ loading: true });
  useEffect(() => {
    let active = true;
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
      return { patientId: id, name: formatHumanName(patient.name?.[0]) || `Patient/${id}` };
    })().then(
      (found) => active && setState({ ...found, loading: false }),
      (error: unknown) => active && setState({ loading: false, error: normalizeErrorString(error) }),
    );
    return () => void (active = false);
  }, [client, patientId, communicationId]);
  return state;
}
