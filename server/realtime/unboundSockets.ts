import type { RealtimeLimits } from './realtimeLimits';

/** Runs `callback` after `ms`; answers the function that cancels it. Tests pass one whose clock they move. */
export type Schedule = (callback: () => void, ms: number) => () => void;

/** setTimeout, not keeping the process alive for an idle socket's sake. */
export const timerSchedule: Schedule = (callback, ms) => {
  const timer = setTimeout(callback, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/**
 * The sockets of one process that are open without a binding, each with the time it has left. A
 * socket has no login until it binds, so these are the only ones nothing else bounds: whoever can
 * reach the server can open them. `maxUnboundSockets` bounds how many there are, the idle limit how
 * long each stays; a socket that closes, or binds, is forgotten.
 */
export class UnboundSockets<S> {
  /** Each waiting socket, with the function that cancels its idle timer. */
  private readonly waiting = new Map<S, () => void>();

  constructor(
    private readonly limits: Pick<RealtimeLimits, 'unboundSocketIdleMs' | 'maxUnboundSockets'>,
    /** Ends a socket whose time ran out (it stays counted until `closed`: it holds memory until then). */
    private readonly onIdle: (socket: S) => void,
    private readonly schedule: Schedule = timerSchedule,
  ) {}

  /** Why one more socket may not be opened now, or undefined when it may. */
  refusal(): string | undefined {
    if (this.waiting.size < this.limits.maxUnboundSockets) return undefined;
    return `This server has ${this.limits.maxUnboundSockets} subscription sockets open without a binding, the most it keeps: try again later`;
  }

  /** The socket has no binding (it just opened, or its last binding ended): its idle time starts now. */
  unbound(socket: S): void {
    this.waiting.get(socket)?.();
    this.waiting.set(
      socket,
      this.schedule(() => this.onIdle(socket), this.limits.unboundSocketIdleMs),
    );
  }

  /** The socket has a binding: it is no longer timed (nor counted) here. */
  bound(socket: S): void {
    this.forget(socket);
  }

  closed(socket: S): void {
    this.forget(socket);
  }

  get size(): number {
    return this.waiting.size;
  }

  private forget(socket: S): void {
    this.waiting.get(socket)?.();
    this.waiting.delete(socket);
  }
}
