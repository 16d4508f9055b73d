import { describe, expect, it } from 'vitest';
import { ManualSchedule } from './manualSchedule.test-support';
import { UnboundSockets } from './unboundSockets';

describe('UnboundSockets', () => {
  const limits = { unboundSocketIdleMs: 1_000, maxUnboundSockets: 2 };

  function tracker() {
    const clock = new ManualSchedule();
    const idle: string[] = [];
    const sockets = new UnboundSockets<string>(limits, (socket) => idle.push(socket), clock.schedule);
    return { clock, idle, sockets };
  }

  it('ends a socket that stays unbound for the idle limit, and starts its time again when it is unbound again', () => {
    const { clock, idle, sockets } = tracker();
    sockets.unbound('a');
    clock.advance(600);
    sockets.bound('b');
    sockets.unbound('a');
    clock.advance(600);
    expect(idle).toEqual([]);
    clock.advance(400);
    expect(idle).toEqual(['a']);
  });

  it('times a bound socket no more, and forgets a closed one', () => {
    const { clock, idle, sockets } = tracker();
    sockets.unbound('a');
    sockets.unbound('b');
    sockets.bound('a');
    sockets.closed('b');
    clock.advance(10_000);
    expect(idle).toEqual([]);
    expect(sockets.size).toBe(0);
    expect(clock.waiting).toBe(0);
  });

  it('refuses another socket at the limit, counting an ended socket until it has closed', () => {
    const { clock, sockets } = tracker();
    expect(sockets.refusal()).toBeUndefined();
    sockets.unbound('a');
    sockets.unbound('b');
    expect(sockets.refusal()).toBe(
      'This server has 2 subscription sockets open without a binding, the most it keeps: try again later',
    );
    clock.advance(1_000);
    // Told to close; it holds its memory until its close is done.
    expect(sockets.refusal()).toBeDefined();
    sockets.closed('a');
    expect(sockets.refusal()).toBeUndefined();
    sockets.bound('b');
    expect(sockets.size).toBe(0);
  });
});
