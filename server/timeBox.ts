import { runInNewContext } from 'node:vm';

/**
 * Runs `work` for at most `milliseconds` on this thread: undefined when the time ran out. For code
 * that runs what a user wrote and can take exponential time — a regular expression, a FHIRPath
 * expression — on the event loop every request shares. It runs under a vm timeout, whose watchdog
 * interrupts any JavaScript on the stack (fhirpath.js, a RegExp's backtracking included), not only
 * the script's own.
 */
export function runTimeBoxed<T>(work: () => T, milliseconds: number): { value: T } | undefined {
  try {
    const value = runInNewContext('work()', { work }, { timeout: Math.max(1, Math.ceil(milliseconds)) }) as T;
    return { value };
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return undefined;
    throw error;
  }
}
