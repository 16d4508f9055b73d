import WebSocket from 'ws';

/** What V8's profiler hands back (Chrome DevTools' .cpuprofile format). */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * CPU profile of another node process (started with `--inspect=127.0.0.1:<port>`) while `work`
 * runs, through its inspector: unlike `--cpu-prof`, which covers a process from start to exit, this
 * leaves out the start and whatever warmed the process up before (steady state).
 */
export async function profileWhile(inspectorPort: number, work: () => Promise<unknown>): Promise<CpuProfile> {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  if (targets.length === 0) throw new Error(`No inspector target on port ${inspectorPort}`);
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let lastId = 0;
  const waiting = new Map<number, (result: unknown) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown };
    if (message.id === undefined) return; // an event, not an answer
    waiting.get(message.id)?.(message.result);
    waiting.delete(message.id);
  });
  const send = <T>(method: string, params: Record<string, unknown> = {}) =>
    new Promise<T>((resolve) => {
      const id = ++lastId;
      waiting.set(id, (result) => resolve(result as T));
      socket.send(JSON.stringify({ id, method, params }));
    });
  try {
    await send('Profiler.enable');
    await send('Profiler.setSamplingInterval', { interval: 500 });
    await send('Profiler.start');
    await work();
    return (await send<{ profile: CpuProfile }>('Profiler.stop')).profile;
  } finally {
    socket.close();
  }
}
