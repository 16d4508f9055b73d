/** The part of the Web Storage API the client needs, so that any key-value store can hold the session. */
export interface ClientStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** A storage that lives as long as the process: the default outside the browser. */
export class MemoryStorage implements ClientStorage {
  private readonly items = new Map<string, string>();

  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }

  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }

  removeItem(key: string): void {
    this.items.delete(key);
  }

  get length(): number {
    return this.items.size;
  }

  clear(): void {
    this.items.clear();
  }
}

export function isBrowser(): boolean {
  return typeof window !== 'undefined' && typeof window.document !== 'undefined';
}

/** localStorage in the browser, memory elsewhere or when localStorage is refused (private modes, sandboxed frames). */
export function defaultStorage(): ClientStorage {
  if (isBrowser()) {
    try {
      const storage = window.localStorage;
      const probe = '__hearth_probe__';
      storage.setItem(probe, probe);
      storage.removeItem(probe);
      return storage;
    } catch {
      // Fall through to memory: the session then lasts as long as the page.
    }
  }
  return new MemoryStorage();
}
