import type { Appointment, Bundle, Reference } from '@medplum/fhirtypes';
import { nameOfResource } from '../../data-provider/formatting';

/** One patient in the building: the appointment they checked in for and who it is with. */
export interface HereTodayVisit {
  appointment: Appointment;
  /** The patient's id (for the chart's links); undefined for an appointment naming no Patient. */
  patientId?: string;
  patientName: string;
  /** The clinicians (Practitioner or PractitionerRole participants), by name. */
  clinicians: string[];
}

export const UNNAMED_PATIENT = 'Unnamed patient';

/** `Type/id` → name of the resources the search brought along (`_include`). */
function includedNames(bundle: Bundle): Map<string, string> {
  const names = new Map<string, string>();
  for (const entry of bundle.entry ?? []) {
    const resource = entry.resource;
    if (entry.search?.mode !== 'include' || !resource?.id) continue;
    const name = nameOfResource(resource);
    if (name) names.set(`${resource.resourceType}/${resource.id}`, name);
  }
  return names;
}

/** The resource's own current name first (a display is a copy from booking time), then the display. */
function nameOf(actor: Reference | undefined, names: Map<string, string>): string | undefined {
  return (actor?.reference && names.get(actor.reference)) || actor?.display?.trim() || undefined;
}

const isType = (actor: Reference | undefined, ...types: string[]) =>
  types.some((type) => actor?.reference?.startsWith(`${type}/`));

/** The search's appointments as the view lists them, in the order the search returned them. */
export function hereTodayVisits(bundle: Bundle | undefined): HereTodayVisit[] {
  if (!bundle) return [];
  const names = includedNames(bundle);
  return (bundle.entry ?? [])
    .filter((entry) => entry.search?.mode !== 'include' && entry.resource?.resourceType === 'Appointment')
    .map((entry) => {
      const appointment = entry.resource as Appointment;
      const actors = (appointment.participant ?? []).map((participant) => participant.actor);
      const patient = actors.find((actor) => isType(actor, 'Patient'));
      const clinicians = actors
        .filter((actor) => isType(actor, 'Practitioner', 'PractitionerRole'))
        .map((actor) => nameOf(actor, names))
        .filter((name): name is string => !!name);
      return {
        appointment,
        patientId: patient?.reference?.slice('Patient/'.length) || undefined,
        patientName: nameOf(patient, names) ?? UNNAMED_PATIENT,
        clinicians,
      };
    });
}

/**
 * Longest wait first (the desk's question is "who has been here longest?"); a visit whose arrival
 * is unknown goes last, and ties keep the appointments' order.
 */
export function byArrival<T extends { arrival?: string }>(visits: readonly T[]): T[] {
  const time = (visit: T) => {
    const value = visit.arrival ? new Date(visit.arrival).getTime() : Number.NaN;
    return Number.isNaN(value) ? Number.POSITIVE_INFINITY : value;
  };
  return [...visits].sort((a, b) => {
    const [first, second] = [time(a), time(b)];
    return first === second ? 0 : first < second ? -1 : 1;
  });
}
