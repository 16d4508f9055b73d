/** A count as the notice says it: loaded (and capped when a page came full) or not at all. */
export interface OpenCount {
  count: number;
  /** As many came as were asked for: "100+". */
  capped: boolean;
}

/** The words of "2 appointments and 3 tasks are still open.", each count its own link. */
export interface StillOpenWords {
  appointments?: string;
  tasks?: string;
  verb: 'is' | 'are';
}

/** "1 appointment", "2 appointments", "100+ appointments". */
export function countOf(count: number, one: string, many: string, capped = false): string {
  return `${count}${capped ? '+' : ''} ${count === 1 && !capped ? one : many}`;
}

const counted = ({ count, capped }: OpenCount, one: string, many: string) => countOf(count, one, many, capped);

/**
 * What is still open for a deceased patient, or undefined when nothing is (the notice then says
 * only when the patient died). A count that is not known — the caller may not search the type,
 * or it failed — is left out rather than said as none.
 */
export function stillOpenWords(appointments?: OpenCount, tasks?: OpenCount): StillOpenWords | undefined {
  const words: StillOpenWords = { verb: 'are' };
  if (appointments && appointments.count > 0) words.appointments = counted(appointments, 'appointment', 'appointments');
  if (tasks && tasks.count > 0) words.tasks = counted(tasks, 'task', 'tasks');
  if (!words.appointments && !words.tasks) return undefined;
  const single = (count?: OpenCount) => count !== undefined && count.count === 1 && !count.capped;
  const only = words.appointments ? appointments : tasks;
  if (!(words.appointments && words.tasks) && single(only)) words.verb = 'is';
  return words;
}
