/**
 * The program of a bot's worker thread, as JavaScript source (workers are started with
 * `eval: true`, so no build step or loader is involved wherever the server runs).
 *
 * The bot's code does not run in this thread's V8 realm at all: it runs in QuickJS compiled to
 * WebAssembly (quickjs-emscripten), whose memory is one ArrayBuffer. Nothing the bot reaches is an
 * object of Node: the only ways out are four host functions that take and answer strings
 * (`botPrelude.ts`). So call-site walking, `constructor.constructor`, `import()` or proxies find
 * QuickJS's own objects, never `process`, `require` or the file system. QuickJS enforces the
 * memory limit (`setMemoryLimit`) and the time limit (an interrupt handler); the server thread also
 * terminates this worker at the deadline.
 *
 * Protocol (worker → server): `{type: 'call', id, target, method, args}`, `{type: 'log', line}`,
 * `{type: 'done', result}`, `{type: 'failed', message}`, `{type: 'timeout'}`, `{type: 'memory'}`;
 * (server → worker): `{type: 'reply', id, ok, json}`.
 */
export const botWorkerSource = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const nodeCrypto = require('node:crypto');
const { newQuickJSWASMModuleFromVariant, newVariant } = require(workerData.quickjsCore);
// The engine's whole memory (heap, stack, data) is this one WebAssembly.Memory: its maximum is the
// bot's memory limit, which no allocation can pass (QuickJS's own malloc accounting is not exact).
const pages = Math.max(16, workerData.memoryMb) * 16;
const memory = new WebAssembly.Memory({ initial: Math.min(256, pages), maximum: pages });
const variant = newVariant(require(workerData.quickjsVariant).default, {
  wasmMemory: memory,
  wasmModule: workerData.wasmModule,
});

const deadline = Date.now() + workerData.timeoutMs;
let finished = false;

function report(message) {
  if (finished) return;
  if (message.type === 'done' || message.type === 'failed' || message.type === 'timeout' || message.type === 'memory') finished = true;
  parentPort.postMessage(message);
}

/** A message the bot posted: untrusted text, copied field by field into plain values. */
function relay(text) {
  let message;
  try { message = JSON.parse(text); } catch (e) { return; }
  if (!message || typeof message !== 'object') return;
  if (message.type === 'log') report({ type: 'log', line: String(message.line) });
  else if (message.type === 'call') {
    const target = message.target === 'fetch' ? 'fetch' : 'medplum';
    report({ type: 'call', id: Number(message.id), target, method: String(message.method), args: String(message.args) });
  } else if (message.type === 'timer') {
    const id = Number(message.id);
    setTimeout(() => callBridge('fire', [id]), Math.min(Number(message.delay) || 0, workerData.timeoutMs));
  } else if (message.type === 'done') {
    const r = message.result || {};
    report({ type: 'done', result: {
      kind: String(r.kind),
      text: r.text === undefined ? undefined : String(r.text),
      latin1: r.latin1 === undefined ? undefined : String(r.latin1),
      json: r.json === undefined ? undefined : String(r.json),
    } });
  } else if (message.type === 'failed') {
    const text = String(message.message);
    report(text === 'out of memory' ? { type: 'memory' } : { type: 'failed', message: text });
  }
}

let vm;
let runtime;
let bridge;

/** Ends the run for a QuickJS exception that escaped the bot's own handling. */
function failWith(errorHandle) {
  const error = vm.dump(errorHandle);
  errorHandle.dispose();
  const message = error && typeof error === 'object' ? String(error.message) : String(error);
  if (Date.now() >= deadline || message === 'interrupted') report({ type: 'timeout' });
  else if (message === 'out of memory') report({ type: 'memory' });
  else report({ type: 'failed', message: error && error.name && error.name !== 'Error' ? error.name + ': ' + message : message });
}

/** Runs promise jobs until none is left (the interrupt handler bounds them in time). */
function drain() {
  for (;;) {
    if (finished) return;
    const result = runtime.executePendingJobs();
    if (result.error) { failWith(result.error); return; }
    const count = result.value;
    if (count === 0) return;
  }
}

function callBridge(name, args) {
  if (finished) return;
  const fn = vm.getProp(bridge, name);
  const handles = args.map((value) => {
    if (value === undefined) return vm.undefined;
    if (typeof value === 'number') return vm.newNumber(value);
    if (typeof value === 'boolean') return value ? vm.true : vm.false;
    return vm.newString(String(value));
  });
  const result = vm.callFunction(fn, vm.undefined, ...handles);
  fn.dispose();
  for (const handle of handles) handle.dispose();
  if (result.error) { failWith(result.error); return; }
  result.value.dispose();
  drain();
}

parentPort.on('message', (message) => {
  if (message && message.type === 'reply') callBridge('deliver', [Number(message.id), Boolean(message.ok), message.json]);
});

newQuickJSWASMModuleFromVariant(variant).then((quickjs) => {
  runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(workerData.memoryMb * 1024 * 1024);
  runtime.setMaxStackSize(512 * 1024);
  runtime.setInterruptHandler(() => Date.now() >= deadline);
  vm = runtime.newContext();

  const host = vm.newObject();
  const define = (name, fn) => {
    const handle = vm.newFunction(name, (...args) => {
      try {
        return vm.newString(String(fn(...args.map((arg) => vm.getString(arg)))));
      } catch (error) {
        return { error: vm.newError(String(error && error.message ? error.message : error)) };
      }
    });
    vm.setProp(host, name, handle);
    handle.dispose();
  };
  define('post', (text) => { relay(text); return ''; });
  define('url', (input, base, hasBase, property, value) => {
    try {
      const url = hasBase === 'true' ? new URL(input, base) : new URL(input);
      if (property) url[property] = value;
      const parts = {};
      for (const key of ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash']) parts[key] = url[key];
      return JSON.stringify(parts);
    } catch (error) {
      return JSON.stringify({ error: 'Invalid URL: ' + input });
    }
  });
  define('random', (count) => nodeCrypto.randomBytes(Math.min(65536, Math.max(0, Number(count) || 0))).toString('hex'));
  define('digest', (name, hex) => {
    if (!['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512'].includes(name)) throw new Error('Unsupported digest ' + name);
    return nodeCrypto.createHash(name.replace('-', '').toLowerCase()).update(Buffer.from(hex, 'hex')).digest('hex');
  });

  const prelude = vm.evalCode(workerData.prelude, 'prelude.js');
  if (prelude.error) { failWith(prelude.error); return; }
  const made = vm.callFunction(prelude.value, vm.undefined, host);
  prelude.value.dispose();
  host.dispose();
  if (made.error) { failWith(made.error); return; }
  bridge = made.value;

  // The module wrapper: a syntax error in the bot's code is the bot's error.
  const wrapper = vm.evalCode(workerData.modulePrefix + workerData.code + '\n})', 'bot.js');
  if (wrapper.error) { failWith(wrapper.error); return; }
  const start = vm.getProp(bridge, 'start');
  const event = vm.newString(workerData.event);
  const started = vm.callFunction(start, vm.undefined, wrapper.value, event);
  start.dispose();
  event.dispose();
  wrapper.value.dispose();
  if (started.error) { failWith(started.error); return; }
  started.value.dispose();
  drain();
}).catch((error) => {
  report({ type: 'failed', message: 'The bot engine failed: ' + (error && error.message ? error.message : String(error)) });
});
`;
