/**
 * A minimal event emitter whose event names and payloads are checked by the compiler. The
 * realtime clients run in browsers and in Node, so neither Node's EventEmitter nor the DOM's
 * EventTarget is assumed.
 */
export class TypedEventEmitter<Events extends object> {
  private readonly listeners = new Map<keyof Events, Set<(payload: never) => void>>();

  on<K extends keyof Events>(type: K, listener: (payload: Events[K]) => void): () => void {
    let set = this.listeners.get(type);
    if (!set) this.listeners.set(type, (set = new Set()));
    set.add(listener);
    return () => this.off(type, listener);
  }

  off<K extends keyof Events>(type: K, listener: (payload: Events[K]) => void): void {
    this.listeners.get(type)?.delete(listener);
  }

  protected emit<K extends keyof Events>(type: K, payload: Events[K]): void {
    // A copy, so that a listener removing itself does not skip the next one.
    for (const listener of [...(this.listeners.get(type) ?? [])]) {
      (listener as (payload: Events[K]) => void)(payload);
    }
  }

  protected listenerCount(type: keyof Events): number {
    return this.listeners.get(type)?.size ?? 0;
  }
}
