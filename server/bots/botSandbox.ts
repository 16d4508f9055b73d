import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { botPreludeSource } from './botPrelude';
import { botWorkerSource } from './botWorkerSource';

// Absolute paths, so the eval'd worker loads the engine whatever its working folder.
const resolveModule = createRequire(import.meta.url).resolve;
const quickjsCore = resolveModule('quickjs-emscripten-core');
const quickjsVariant = resolveModule('@jitl/quickjs-wasmfile-release-sync');

/** Where the eval'd workers (a run's, and the deploy's syntax check: botSyntax.ts) load the engine from. */
export const quickjsPaths = { quickjsCore, quickjsVariant };

/**
 * The module function the bot's code is wrapped in (botWorkerSource.ts), up to the code; the code
 * is followed by a line `})`. Its first line is the code's first line.
 */
export const botModulePrefix = '(function (exports, module, require, medplum, event) {';

// The engine's code, compiled once per process and shared with each run's worker (a compiled
// module is immutable code; every run instantiates it with a memory of its own).
let compiledEngine: Promise<WebAssembly.Module> | undefined;
export function engineModule(): Promise<WebAssembly.Module> {
  compiledEngine ??= WebAssembly.compile(readFileSync(resolveModule('@jitl/quickjs-wasmfile-release-sync/wasm')));
  return compiledEngine;
}

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

/** A `fetch` the bot made: the request as the bot gave it (body as Latin-1 bytes). */
export interface BotFetchRequest {
  url: string;
  method: string;
  headers: [string, string][];
  body?: { latin1: string };
}

/** The answer a bot's `fetch` gets: the body as base64 (bytes, whatever the content). */
export interface BotFetchAnswer {
  url: string;
  status: number;
  statusText: string;
  redirected: boolean;
  headers: [string, string][];
  base64: string;
}

export type FetchCall = (request: BotFetchRequest) => Promise<BotFetchAnswer>;

export interface SandboxRun {
  code: string;
  /** The bot's event, as JSON-able data. */
  event: unknown;
  timeoutMs: number;
  memoryMb: number;
  onCall: ClientCall;
  /** The bot's `fetch`; refused when not given. */
  onFetch?: FetchCall;
}

/** Log lines kept per run (a chatty bot must not fill the server's memory). */
const maxLogLines = 1000;
const maxLogLineLength = 10_000;

type WorkerMessage =
  | { type: 'log'; line: string }
  | { type: 'call'; id: number; target: 'medplum' | 'fetch'; method: string; args: string }
  | { type: 'done'; result: { kind: string; text?: string; latin1?: string; json?: string } }
  | { type: 'failed'; message: string }
  | { type: 'timeout' }
  | { type: 'memory' };

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
 * Runs bot code in QuickJS (a JavaScript engine compiled to WebAssembly, see botWorkerSource.ts) in
 * a fresh worker thread with an empty environment, so a CPU-bound bot never blocks the server's
 * event loop. QuickJS holds the bot to `memoryMb` and `timeoutMs`; the worker is also terminated at
 * the deadline and always at the end, whatever the bot did, so a hung or runaway bot costs the
 * server nothing after its run.
 */
export async function runInSandbox(run: SandboxRun): Promise<SandboxOutcome> {
  const wasmModule = await engineModule();
  return new Promise((resolve) => {
    const logs: string[] = [];
    let settled = false;
    const worker = new Worker(botWorkerSource, {
      eval: true,
      workerData: {
        code: run.code,
        event: JSON.stringify(run.event ?? null),
        timeoutMs: run.timeoutMs,
        memoryMb: run.memoryMb,
        prelude: botPreludeSource,
        modulePrefix: botModulePrefix,
        quickjsCore,
        quickjsVariant,
        wasmModule,
      },
      // Nothing of the server's environment in the thread that hosts the engine.
      env: {},
      resourceLimits: {
        // The bot's own heap is QuickJS's (WebAssembly memory); this bounds the host side's copies.
        maxOldGenerationSizeMb: Math.max(64, run.memoryMb),
        maxYoungGenerationSizeMb: 16,
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
    const timedOut = () =>
      finish({ ok: false, failure: 'timeout', message: `Bot did not finish within ${run.timeoutMs} ms`, logs });
    const outOfMemory = () =>
      finish({ ok: false, failure: 'memory', message: `Bot ran out of memory (limit ${run.memoryMb} MB)`, logs });
    const timer = setTimeout(timedOut, run.timeoutMs);
    const reply = (id: number, call: Promise<unknown>) =>
      call.then(
        (value) => {
          if (settled) return;
          const json = value === undefined ? undefined : JSON.stringify(value);
          worker.postMessage({ type: 'reply', id, ok: true, json });
        },
        (error: unknown) => {
          if (settled) return;
          worker.postMessage({ type: 'reply', id, ok: false, json: JSON.stringify(describeError(error)) });
        },
      );
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'log') {
        if (logs.length < maxLogLines) logs.push(message.line.slice(0, maxLogLineLength));
      } else if (message.type === 'done') {
        try {
          finish({ ok: true, value: valueOf(message.result), logs });
        } catch (error) {
          finish({ ok: false, failure: 'error', message: `Bot returned an unreadable value: ${String(error)}`, logs });
        }
      } else if (message.type === 'failed') {
        finish({ ok: false, failure: 'error', message: message.message, logs });
      } else if (message.type === 'timeout') {
        timedOut();
      } else if (message.type === 'memory') {
        outOfMemory();
      } else if (message.type === 'call') {
        let args: unknown[];
        try {
          args = JSON.parse(message.args) as unknown[];
        } catch {
          args = [];
        }
        if (!Array.isArray(args)) args = [];
        if (message.target === 'fetch') {
          const fetchCall = run.onFetch;
          reply(
            message.id,
            fetchCall
              ? Promise.resolve().then(() => fetchCall(args[0] as BotFetchRequest))
              : Promise.reject(new Error('fetch is not available to this bot')),
          );
        } else {
          reply(
            message.id,
            Promise.resolve().then(() => run.onCall(message.method, args)),
          );
        }
      }
    });
    worker.on('error', (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        outOfMemory();
      } else {
        finish({ ok: false, failure: 'error', message: error.message, logs });
      }
    });
    worker.on('exit', (code) => {
      finish({ ok: false, failure: 'error', message: `Bot worker stopped unexpectedly (exit code ${code})`, logs });
    });
  });
}
