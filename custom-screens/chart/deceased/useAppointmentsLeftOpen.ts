import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Appointment, Patient } from '@medplum/fhirtypes';
import { canReadResourceType } from '../../../data-provider/access';
import { isDeceased } from '../../../data-provider/rules';
import { useFhirClient } from '../../../src/resources/useFhirClient';
import { appointmentsLeftOpen, OPEN_APPOINTMENT_STATUSES } from './appointmentsLeftOpen';

/** As many as the summary loads of a kind: a patient with more open appointments reads "100+". */
export const LEFT_OPEN_COUNT = 100;

export interface AppointmentsLeftOpen {
  /** Soonest first, each as read (with its version: a cancel sends it back as If-Match). */
  items: Appointment[];
  loading: boolean;
  error?: Error;
  /** As many came as were asked for: there may be more. */
  capped: boolean;
}

export function appointmentsLeftOpenKey(patientId: string): unknown[] {
  return ['chart-deceased', patientId, 'appointments'];
}

/**
 * A deceased patient's appointments that still expect them. Asked only for a deceased patient and
 * a caller who may search appointments (undefined otherwise: the notice then names none). The
 * search takes every open status, not only dated ones, so that a request or a waiting-list entry
 * without a start is found too; which of them came after the death is decided here, by the rule.
 * Newest start first, so that when there are more than a page the ones to close come.
 */
export function useAppointmentsLeftOpen(patient: Patient): AppointmentsLeftOpen | undefined {
  const client = useFhirClient();
  const patientId = patient.id ?? '';
  const allowed = client.isSuperAdmin() || canReadResourceType(client.getAccessPolicy(), 'Appointment');
  const enabled = allowed && isDeceased(patient) && patientId !== '';
  const result = useQuery({
    queryKey: appointmentsLeftOpenKey(patientId),
    queryFn: ({ signal }) =>
      client.searchResources(
        'Appointment',
        {
          patient: `Patient/${patientId}`,
          status: OPEN_APPOINTMENT_STATUSES.join(','),
          _sort: '-date',
          _count: LEFT_OPEN_COUNT,
        },
        { signal },
      ),
    enabled,
    retry: false,
  });
  const { deceasedBoolean, deceasedDateTime } = patient;
  const items = useMemo(
    () => appointmentsLeftOpen(result.data ?? [], { deceasedBoolean, deceasedDateTime }, new Date()),
    [result.data, deceasedBoolean, deceasedDateTime],
  );
  if (!enabled) return undefined;
  return {
    items,
    loading: result.isPending,
    error: result.error ?? undefined,
    capped: (result.data?.length ?? 0) >= LEFT_OPEN_COUNT,
  };
}
