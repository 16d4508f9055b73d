import { Worker } from 'node:worker_threads';
import { botWorkerSource } from './botWorkerSource';

/** What a bot returned: nothing, text, bytes or a JSON value. */
export type BotValue =
  | { kind: 'none' }
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; bytes: Buffer }
  | { kind: 'json'; value: unknown };

export type BotFailure = 'error' | 'timeout' | 'memory';

export type SandboxOutcome =
  { ok: true; value: BotValue; logs: string[] } | { ok: false; failure: BotFailure; message: string; logs: string[] };

/** A call the bot made on its `medplum` client; answers a JSON-able value or throws. */
export type ClientCall = (method: string, args: unknown[]) => Promise<unknown>;

export interface SandboxRun {
  code: string;
  /** The bot's event, as JSON-able data. */
  event: unknown;
  timeoutMs: number;
  memoryMb: number;
  onCall: ClientCall;
}

/** Log lines kept per run (a chatty bot must not fill the server's memory). */
const maxLogLines = 1000;

type WorkerMessage =
  | { type: 'log'; line: string }
  | { type: 'call'; id: number; method: string; args: string }
  | { type: 'done'; result: { kind: string; text?: string; latin1?: string; json?: string } }
  | { type: 'failed'; message: string };

function valueOf(result: { kind: string; text?: string; latin1?: string; json?: string }): BotValue {
  if (result.kind === 'text') return { kind: 'text', text: result.text ?? '' };
  if (result.kind === 'bytes') return { kind: 'bytes', bytes: Buffer.from(result.latin1 ?? '', 'latin1') };
  if (result.kind === 'json')
    return { kind: 'json', value: result.json === undefined ? null : JSON.parse(result.json) };
  return { kind: 'none' };
}

/** An error as the bot sees it: message, and the OperationOutcome when the server sent one. */
function describeError(error: unknown): { message: string; outcome?: unknown; status?: number } {
  const failure = error as { message?: string; outcome?: unknown; status?: number };
  return {
    message: failure?.message ?? String(error),
    ...(failure?.outcome ? { outcome: failure.outcome } : {}),
    ...(typeof failure?.status === 'number' ? { status: failure.status } : {}),
  };
}

/**
 * Runs bot code in a fresh worker thread (its own heap, limited by `memoryMb`) inside a `node:vm`
 * context, and stops it after `timeoutMs`. The worker is always terminated at the end, whatever
 * the bot did, so a hung or runaway bot costs the server nothing after its run.
 */
export function runInSandbox(run: SandboxRun): Promise<SandboxOutcome> {
  return new Promise((resolve) => {
    const logs: string[] = [];
    let settled = false;
    const worker = new Worker(botWorkerSource, {
      eval: true,
      workerData: { code: run.code, event: JSON.stringify(run.event ?? null), timeoutMs: run.timeoutMs },
      resourceLimits: {
        maxOldGenerationSizeMb: run.memoryMb,
        maxYoungGenerationSizeMb: Math.max(4, Math.floor(run.memoryMb / 8)),
        codeRangeSizeMb: 16,
        stackSizeMb: 4,
      },
      stdout: true,
      stderr: true,
    });
    const finish = (outcome: SandboxOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(outcome);
    };
    const timer = setTimeout(
      () => finish({ ok: false, failure: 'timeout', message: `Bot did not finish within ${run.timeoutMs} ms`, logs }),
      run.timeoutMs,
    );
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'log') {
        if (logs.length < maxLogLines) logs.push(message.line);
      } else if (message.type === 'done') {
        try {
          finish({ ok: true, value: valueOf(message.result), logs });
        } catch (error) {
          finish({ ok: false, failure: 'error', message: `Bot returned an unreadable value: ${String(error)}`, logs });
        }
      } else if (message.type === 'failed') {
        finish({ ok: false, failure: 'error', message: message.message, logs });
      } else if (message.type === 'call') {
        let args: unknown[];
        try {
          args = JSON.parse(message.args) as unknown[];
        } catch {
          args = [];
        }
        run.onCall(message.method, args).then(
          (value) => {
            if (settled) return;
            const json = value === undefined ? undefined : JSON.stringify(value);
            worker.postMessage({ type: 'reply', id: message.id, ok: true, json });
          },
          (error: unknown) => {
            if (settled) return;
            worker.postMessage({
              type: 'reply',
              id: message.id,
              ok: false,
              json: JSON.stringify(describeError(error)),
            });
          },
        );
      }
    });
    worker.on('error', (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        finish({
          ok: false,
          failure: 'memory',
          message: `Bot ran out of memory (limit ${run.memoryMb} MB)`,
          logs,
        });
      } else {
        finish({ ok: false, failure: 'error', message: error.message, logs });
      }
    });
    worker.on('exit', (code) => {
      finish({ ok: false, failure: 'error', message: `Bot worker stopped unexpectedly (exit code ${code})`, logs });
    });
  });
}
