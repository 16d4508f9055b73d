import type { Database } from '../storage/database';
import { ClusterBus } from './clusterBus';

const buses = new WeakMap<Database, { bus: Promise<ClusterBus>; users: number }>();

/**
 * The one cluster bus of a database in this process, shared by the realtime plugins (subscriptions,
 * FHIRcast); `release` closes it when its last user is done.
 */
export async function acquireClusterBus(db: Database): Promise<{ bus: ClusterBus; release: () => Promise<void> }> {
  let entry = buses.get(db);
  if (!entry) {
    entry = { bus: ClusterBus.start(db), users: 0 };
    buses.set(db, entry);
  }
  entry.users++;
  const held = entry;
  const bus = await held.bus;
  let released = false;
  return {
    bus,
    release: async () => {
      if (released) return;
      released = true;
      held.users--;
      if (held.users > 0) return;
      if (buses.get(db) === held) buses.delete(db);
      await bus.close();
    },
  };
}
