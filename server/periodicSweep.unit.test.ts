import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startPeriodicSweep } from './periodicSweep';

const minute = 60 * 1000;
const hour = 60 * minute;

describe('startPeriodicSweep', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('sweeps first a few minutes after start, not after the whole interval, then every interval', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const app = Fastify();
    const sweep = vi.fn(() => Promise.resolve(0));
    startPeriodicSweep(app, sweep, { name: 'test sweep', intervalMs: hour, firstAfterMs: 2 * minute });

    await vi.advanceTimersByTimeAsync(2 * minute);
    expect(sweep).not.toHaveBeenCalled();
    // 2 minutes plus half of 2 minutes of spread.
    await vi.advanceTimersByTimeAsync(minute);
    expect(sweep).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(hour - 1);
    expect(sweep).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sweep).toHaveBeenCalledTimes(2);
    await app.close();
  });

  it('never starts a sweep while the one before it still runs', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const app = Fastify();
    let finish: () => void = () => undefined;
    const sweep = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    startPeriodicSweep(app, sweep, { name: 'test sweep', intervalMs: minute, firstAfterMs: minute });

    await vi.advanceTimersByTimeAsync(minute);
    expect(sweep).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(10 * minute);
    expect(sweep).toHaveBeenCalledTimes(1);
    finish();
    await vi.advanceTimersByTimeAsync(minute);
    expect(sweep).toHaveBeenCalledTimes(2);
    finish();
    await app.close();
  });

  it('logs a failed sweep without the stack and sweeps again next time', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const app = Fastify();
    const sweep = vi.fn().mockRejectedValueOnce(new Error('connection lost')).mockResolvedValue(0);
    startPeriodicSweep(app, sweep, { name: 'test sweep', intervalMs: hour, firstAfterMs: minute });

    await vi.advanceTimersByTimeAsync(minute);
    expect(logged).toHaveBeenCalledWith('test sweep failed:', 'connection lost');
    await vi.advanceTimersByTimeAsync(hour);
    expect(sweep).toHaveBeenCalledTimes(2);
    await app.close();
  });

  it('closing aborts the running sweep, waits for it, and schedules nothing more', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const app = Fastify();
    let seen: AbortSignal | undefined;
    let ended = false;
    const sweep = vi.fn(
      (signal: AbortSignal) =>
        new Promise<void>((_resolve, reject) => {
          seen = signal;
          signal.addEventListener('abort', () => {
            ended = true;
            reject(new Error('aborted'));
          });
        }),
    );
    startPeriodicSweep(app, sweep, { name: 'test sweep', intervalMs: minute, firstAfterMs: minute });
    await vi.advanceTimersByTimeAsync(minute);
    expect(seen?.aborted).toBe(false);

    await app.close();
    expect(seen?.aborted).toBe(true);
    expect(ended).toBe(true);
    // A sweep ended by closing is not a failure to report.
    expect(logged).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(10 * minute);
    expect(sweep).toHaveBeenCalledTimes(1);
  });

  it('closing before the first sweep cancels it', async () => {
    const app = Fastify();
    const sweep = vi.fn(() => Promise.resolve(0));
    startPeriodicSweep(app, sweep, { name: 'test sweep', intervalMs: hour, firstAfterMs: minute });
    await app.close();
    await vi.advanceTimersByTimeAsync(2 * hour);
    expect(sweep).not.toHaveBeenCalled();
  });
});
