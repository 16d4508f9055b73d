import type { Schedule } from './unboundSockets';

/**
 * A `Schedule` whose clock moves only when a test says so: `advance` runs, in their order, the
 * callbacks that fall due — so a test of a minute's timeout takes no time and cannot race one.
 */
export class ManualSchedule {
  private now = 0;
  private pending: { at: number; callback: () => void }[] = [];

  readonly schedule: Schedule = (callback, ms) => {
    const entry = { at: this.now + ms, callback };
    this.pending.push(entry);
    return () => {
      this.pending = this.pending.filter((other) => other !== entry);
    };
  };

  advance(ms: number): void {
    this.now += ms;
    for (;;) {
      const due = this.pending.filter((entry) => entry.at <= this.now).sort((a, b) => a.at - b.at)[0];
      if (!due) return;
      this.pending = this.pending.filter((entry) => entry !== due);
      due.callback();
    }
  }

  /** Callbacks waiting for their time. */
  get waiting(): number {
    return this.pending.length;
  }
}
