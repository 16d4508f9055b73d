/**
 * The program of a bot's worker thread, as JavaScript source (workers are started with
 * `eval: true`, so no build step or loader is involved wherever the server runs).
 *
 * The bot's code runs in a `node:vm` context that never receives an object of the worker's own
 * realm: everything the bot sees (exports, the event, the `medplum` client, console) is made inside
 * the context from strings, and the context cannot compile code from strings (no eval, no
 * Function). The bot and the worker talk through plain arrays in the context, which the worker
 * polls: calls of `medplum.*` go to the server thread as messages, and answers come back as JSON
 * text. Protocol (worker → server): `{type: 'call', id, method, args}`, `{type: 'log', line}`,
 * `{type: 'done', result}` or `{type: 'failed', message}`; (server → worker):
 * `{type: 'reply', id, ok, json}`.
 */
export const botWorkerSource = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const vm = require('node:vm');

const context = vm.createContext({}, {
  name: 'bot',
  codeGeneration: { strings: false, wasm: false },
});

// Built inside the context, so every object the bot can reach belongs to the context's realm.
const bootstrap = ${'`'}
(function () {
  const outbox = [];
  const pending = new Map();
  let nextId = 0;
  const bridge = { outbox, result: undefined };
  function format(value) {
    if (typeof value === 'string') return value;
    if (value instanceof Error) return value.stack || value.message;
    try { return JSON.stringify(value); } catch (e) { return String(value); }
  }
  function log(level, args) {
    outbox.push({ type: 'log', line: (level === 'log' ? '' : level.toUpperCase() + ' ') + Array.prototype.map.call(args, format).join(' ') });
  }
  const console = {
    log: function () { log('log', arguments); },
    info: function () { log('info', arguments); },
    warn: function () { log('warn', arguments); },
    error: function () { log('error', arguments); },
    debug: function () { log('debug', arguments); },
  };
  function call(method, args) {
    return new Promise(function (resolve, reject) {
      const id = ++nextId;
      pending.set(id, { resolve: resolve, reject: reject });
      let json;
      try { json = JSON.stringify(args === undefined ? [] : args); } catch (e) { pending.delete(id); reject(e); return; }
      outbox.push({ type: 'call', id: id, method: method, args: json });
    });
  }
  bridge.deliver = function (id, ok, json) {
    const waiting = pending.get(id);
    if (!waiting) return;
    pending.delete(id);
    const value = json === undefined ? undefined : JSON.parse(json);
    if (ok) { waiting.resolve(value); return; }
    const error = new Error(value && value.message ? value.message : 'Request failed');
    if (value && value.outcome) error.outcome = value.outcome;
    if (value && value.status) error.status = value.status;
    waiting.reject(error);
  };
  const medplum = new Proxy({}, {
    get: function (_target, name) {
      if (typeof name !== 'string' || name === 'then') return undefined;
      return function () { return call(name, Array.prototype.slice.call(arguments)); };
    },
  });
  // Timers are kept here and fired by the worker: the bot never holds the worker's own functions.
  const timers = new Map();
  let nextTimer = 0;
  function setTimeout(callback, delay) {
    if (typeof callback !== 'function') throw new TypeError('setTimeout needs a function');
    const id = ++nextTimer;
    timers.set(id, { callback: callback, args: Array.prototype.slice.call(arguments, 2) });
    outbox.push({ type: 'timer', id: id, delay: Math.max(0, Number(delay) || 0) });
    return id;
  }
  function clearTimeout(id) { timers.delete(id); }
  bridge.fire = function (id) {
    const timer = timers.get(id);
    if (!timer) return;
    timers.delete(id);
    try { timer.callback.apply(undefined, timer.args); } catch (error) { log('error', [error]); }
  };
  const module = { exports: {} };
  function require(name) {
    throw new Error('Bots cannot load modules ("' + name + '"): use the medplum client and the event');
  }
  bridge.start = function (code, eventJson) {
    const event = JSON.parse(eventJson);
    return { module: module, scope: { exports: module.exports, module: module, require: require, console: console, medplum: medplum, event: event, setTimeout: setTimeout, clearTimeout: clearTimeout } };
  };
  bridge.finish = function (handler, medplumArg, event) {
    Promise.resolve()
      .then(function () { return handler(medplumArg, event); })
      .then(function (value) {
        let result;
        if (value === undefined) result = { kind: 'none' };
        else if (typeof value === 'string') result = { kind: 'text', text: value };
        else if (value instanceof Uint8Array) {
          let text = '';
          for (let i = 0; i < value.length; i++) text += String.fromCharCode(value[i]);
          result = { kind: 'bytes', latin1: text };
        } else result = { kind: 'json', json: JSON.stringify(value) };
        outbox.push({ type: 'done', result: result });
      }, function (error) {
        outbox.push({ type: 'failed', message: error && error.message ? String(error.message) : String(error) });
      });
  };
  return bridge;
})()
${'`'};

const bridge = vm.runInContext(bootstrap, context);
const started = bridge.start(null, workerData.event);

function flush() {
  while (bridge.outbox.length > 0) {
    const message = bridge.outbox.shift();
    // Copied field by field into this realm's plain values before leaving the thread.
    if (message.type === 'log') parentPort.postMessage({ type: 'log', line: String(message.line) });
    else if (message.type === 'timer') {
      const id = Number(message.id);
      setTimeout(() => bridge.fire(id), Number(message.delay));
    } else if (message.type === 'call') parentPort.postMessage({ type: 'call', id: Number(message.id), method: String(message.method), args: String(message.args) });
    else if (message.type === 'done') {
      const r = message.result;
      parentPort.postMessage({ type: 'done', result: { kind: String(r.kind), text: r.text === undefined ? undefined : String(r.text), latin1: r.latin1 === undefined ? undefined : String(r.latin1), json: r.json === undefined ? undefined : String(r.json) } });
    } else if (message.type === 'failed') parentPort.postMessage({ type: 'failed', message: String(message.message) });
  }
}

parentPort.on('message', (message) => {
  if (message.type === 'reply') bridge.deliver(message.id, message.ok, message.json);
});

const pump = setInterval(flush, 1);

try {
  // The module wrapper runs as a script in the context; a syntax error is the bot's error.
  const wrapper = new vm.Script('(function (exports, module, require, console, medplum, event, setTimeout, clearTimeout) {' + workerData.code + '\n})', { filename: 'bot.js' });
  const scope = started.scope;
  wrapper.runInContext(context, { timeout: workerData.timeoutMs })(scope.exports, scope.module, scope.require, scope.console, scope.medplum, scope.event, scope.setTimeout, scope.clearTimeout);
  const handler = started.module.exports && started.module.exports.handler;
  if (typeof handler !== 'function') {
    parentPort.postMessage({ type: 'failed', message: 'The bot does not export a handler function (exports.handler = async (medplum, event) => …)' });
  } else {
    bridge.finish(handler, scope.medplum, scope.event);
  }
} catch (error) {
  flush();
  parentPort.postMessage({ type: 'failed', message: error && error.message ? String(error.message) : String(error) });
}
void pump;
`;
