import { stillOpenWords, type OpenCount } from './stillOpenWords';

/**
 * The Tasks tab's line for a patient who has died: "The patient has died and 3 tasks are still open:
 * close the ones no longer needed." It asks, not closes: some open tasks are the death's own
 * paperwork. It does not repeat the name and date, which the chart's notice right above says.
 * Undefined when no task is open (the notice alone says the death) or while the count is not known
 * (loading, failed, or the caller may not search tasks), so that the line never guesses.
 */
export function tasksLeftOpenWords(tasks: OpenCount | undefined): string | undefined {
  const words = tasks && stillOpenWords(undefined, tasks);
  if (!words?.tasks) return undefined;
  const ask = words.verb === 'is' ? 'close it if it is no longer needed' : 'close the ones no longer needed';
  return `The patient has died and ${words.tasks} ${words.verb} still open: ${ask}.`;
}
