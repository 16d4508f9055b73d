import { Worker } from 'node:worker_threads';
import { asCommonJs } from './botCode';
import { botModulePrefix, engineModule, quickjsPaths } from './botSandbox';

/** Where and why a bot's code does not parse. */
export interface BotSyntaxError {
  /** The engine's message, e.g. `SyntaxError: expecting '}'`. */
  message: string;
  /** 1-based, in the code as deployed. */
  line: number;
  column: number;
  /** The code ended before the error was found (a block or string left open). */
  atEnd: boolean;
}

/** Memory for parsing (the code is at most 5 MB: botCode.ts) and the time allowed, generous. */
const parseMemoryMb = 256;
const parseTimeoutMs = 20_000;

/**
 * The worker's program: compiles the code in QuickJS without running it (`compileOnly`), exactly as
 * the sandbox wraps it (botWorkerSource.ts), and posts the error the engine reports, if any.
 */
const syntaxWorkerSource = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { newQuickJSWASMModuleFromVariant, newVariant } = require(workerData.quickjsCore);
const pages = workerData.memoryMb * 16;
const memory = new WebAssembly.Memory({ initial: 256, maximum: pages });
const variant = newVariant(require(workerData.quickjsVariant).default, { wasmMemory: memory, wasmModule: workerData.wasmModule });
newQuickJSWASMModuleFromVariant(variant).then((quickjs) => {
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(workerData.memoryMb * 1024 * 1024);
  runtime.setMaxStackSize(512 * 1024);
  const vm = runtime.newContext();
  const result = vm.evalCode(workerData.wrapped, 'bot.js', { compileOnly: true });
  if (!result.error) {
    result.value.dispose();
    parentPort.postMessage({ ok: true });
    return;
  }
  const error = vm.dump(result.error);
  result.error.dispose();
  const where = /bot\.js:(\d+):(\d+)/.exec(String(error && error.stack));
  parentPort.postMessage({
    ok: false,
    name: String((error && error.name) || 'SyntaxError'),
    message: String(error && typeof error === 'object' ? error.message : error),
    line: where ? Number(where[1]) : Number((error && error.lineNumber) || 0),
    column: where ? Number(where[2]) : 0,
  });
}).catch((error) => parentPort.postMessage({ failed: String(error && error.message ? error.message : error) }));
`;

type SyntaxAnswer =
  { ok: true } | { ok: false; name: string; message: string; line: number; column: number } | { failed: string };

/**
 * Whether a bot's code parses as the sandbox will run it: turned to CommonJS (`asCommonJs`) and
 * wrapped in the module function, compiled by the same QuickJS (WebAssembly, in a worker thread,
 * nothing run). Answers the first syntax error with its line and column in the code as given, or
 * undefined. Nothing of the code runs, here or in the engine.
 */
export async function findBotSyntaxError(code: string): Promise<BotSyntaxError | undefined> {
  const wasmModule = await engineModule();
  const answer = await new Promise<SyntaxAnswer>((resolve) => {
    const worker = new Worker(syntaxWorkerSource, {
      eval: true,
      workerData: {
        ...quickjsPaths,
        wasmModule,
        memoryMb: parseMemoryMb,
        wrapped: botModulePrefix + asCommonJs(code) + '\n})',
      },
      env: {},
      resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
      stdout: true,
      stderr: true,
    });
    let settled = false;
    const finish = (result: SyntaxAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(result);
    };
    const timer = setTimeout(
      () => finish({ failed: `the code could not be parsed within ${parseTimeoutMs / 1000} s` }),
      parseTimeoutMs,
    );
    worker.once('message', (message: SyntaxAnswer) => finish(message));
    worker.once('error', (error) => finish({ failed: error.message }));
    worker.once('exit', (exitCode) => finish({ failed: `the parser stopped unexpectedly (exit code ${exitCode})` }));
  });
  if ('failed' in answer) {
    return { message: `The code could not be checked: ${answer.failed}`, line: 1, column: 1, atEnd: false };
  }
  if (answer.ok) return undefined;
  const lines = code.split('\n');
  // The wrapper ends with a line of its own: an error found there is one at the end of the code.
  const atEnd = answer.line > lines.length || answer.line < 1;
  const line = atEnd ? lines.length : answer.line;
  let column = atEnd ? lines[lines.length - 1].length + 1 : Math.max(1, answer.column);
  // The wrapper opens on the code's first line.
  if (!atEnd && line === 1) column = Math.max(1, column - botModulePrefix.length);
  return { message: `${answer.name}: ${answer.message}`, line, column, atEnd };
}

/** The error as one sentence for an OperationOutcome. */
export function describeBotSyntaxError(error: BotSyntaxError): string {
  const where = `line ${error.line}, column ${error.column}${error.atEnd ? ', at the end of the code' : ''}`;
  return `The bot's code does not parse: ${error.message} (${where})`;
}
