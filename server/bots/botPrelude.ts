/**
 * JavaScript that runs first inside a bot's QuickJS context (a WebAssembly JS engine: nothing in it
 * is an object of a Node realm). It builds the bot's globals from plain JavaScript and four host
 * functions that take and answer strings only (`host.post`, `host.url`, `host.random`,
 * `host.digest`; bytes cross as hex), then forgets the host object. Everything asynchronous (medplum calls, fetch,
 * timers) is a message posted to the worker; answers come back through `bridge.deliver` and
 * `bridge.fire`.
 *
 * Messages (bot → worker, as JSON text): `{type:'log', line}`, `{type:'call', id, target:'medplum'|'fetch',
 * method, args}`, `{type:'timer', id, delay}`, `{type:'done', result}`, `{type:'failed', message}`.
 */
export const botPreludeSource = String.raw`
(function (host) {
  'use strict';
  const post = host.post;
  const hostUrl = host.url;
  const hostRandom = host.random;
  const hostDigest = host.digest;
  function send(message) { post(JSON.stringify(message)); }

  function format(value) {
    if (typeof value === 'string') return value;
    if (value instanceof Error) return value.stack ? value.name + ': ' + value.message + '\n' + value.stack : String(value);
    try { const text = JSON.stringify(value); return text === undefined ? String(value) : text; } catch (e) { return String(value); }
  }
  function log(level, args) {
    send({ type: 'log', line: (level === 'log' ? '' : level.toUpperCase() + ' ') + Array.prototype.map.call(args, format).join(' ') });
  }
  const console = {
    log: function () { log('log', arguments); },
    info: function () { log('info', arguments); },
    warn: function () { log('warn', arguments); },
    error: function () { log('error', arguments); },
    debug: function () { log('debug', arguments); },
  };

  const pending = new Map();
  let nextCall = 0;
  function call(target, method, args) {
    return new Promise(function (resolve, reject) {
      const id = ++nextCall;
      let json;
      try { json = JSON.stringify(args === undefined ? [] : args); } catch (e) { reject(e); return; }
      pending.set(id, { resolve: resolve, reject: reject });
      send({ type: 'call', id: id, target: target, method: method, args: json === undefined ? '[]' : json });
    });
  }
  function deliver(id, ok, json) {
    const waiting = pending.get(id);
    if (!waiting) return;
    pending.delete(id);
    const value = json === undefined || json === '' ? undefined : JSON.parse(json);
    if (ok) { waiting.resolve(value); return; }
    const error = new Error(value && value.message ? value.message : 'Request failed');
    if (value && value.outcome) error.outcome = value.outcome;
    if (value && typeof value.status === 'number') error.status = value.status;
    waiting.reject(error);
  }

  const medplum = new Proxy({}, {
    get: function (_target, name) {
      if (typeof name !== 'string' || name === 'then') return undefined;
      return function () { return call('medplum', name, Array.prototype.slice.call(arguments)); };
    },
  });

  const timers = new Map();
  let nextTimer = 0;
  function setTimeout(callback, delay) {
    if (typeof callback !== 'function') throw new TypeError('setTimeout needs a function');
    const id = ++nextTimer;
    timers.set(id, { callback: callback, args: Array.prototype.slice.call(arguments, 2) });
    send({ type: 'timer', id: id, delay: Math.max(0, Number(delay) || 0) });
    return id;
  }
  function clearTimeout(id) { timers.delete(id); }
  function fire(id) {
    const timer = timers.get(id);
    if (!timer) return;
    timers.delete(id);
    try { timer.callback.apply(undefined, timer.args); } catch (error) { log('error', [error]); }
  }

  // UTF-8, Latin-1 ("binary string") and base64 conversions, in plain JavaScript.
  function utf8Encode(text) {
    const bytes = [];
    for (let i = 0; i < text.length; i++) {
      let code = text.charCodeAt(i);
      if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
        const low = text.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) { code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00); i++; }
        else code = 0xfffd;
      } else if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd;
      if (code < 0x80) bytes.push(code);
      else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 63));
      else if (code < 0x10000) bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
      else bytes.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
    }
    return new Uint8Array(bytes);
  }
  function utf8Decode(bytes) {
    let out = '';
    for (let i = 0; i < bytes.length;) {
      const b = bytes[i];
      let code = 0xfffd; let size = 1;
      if (b < 0x80) { code = b; }
      else if (b >= 0xc2 && b < 0xe0 && i + 1 < bytes.length && (bytes[i + 1] & 0xc0) === 0x80) { code = ((b & 31) << 6) | (bytes[i + 1] & 63); size = 2; }
      else if (b >= 0xe0 && b < 0xf0 && i + 2 < bytes.length && (bytes[i + 1] & 0xc0) === 0x80 && (bytes[i + 2] & 0xc0) === 0x80) {
        code = ((b & 15) << 12) | ((bytes[i + 1] & 63) << 6) | (bytes[i + 2] & 63); size = 3;
        if (code < 0x800 || (code >= 0xd800 && code <= 0xdfff)) code = 0xfffd;
      } else if (b >= 0xf0 && b < 0xf5 && i + 3 < bytes.length && (bytes[i + 1] & 0xc0) === 0x80 && (bytes[i + 2] & 0xc0) === 0x80 && (bytes[i + 3] & 0xc0) === 0x80) {
        code = ((b & 7) << 18) | ((bytes[i + 1] & 63) << 12) | ((bytes[i + 2] & 63) << 6) | (bytes[i + 3] & 63); size = 4;
        if (code < 0x10000 || code > 0x10ffff) code = 0xfffd;
      }
      out += String.fromCodePoint(code);
      i += size;
    }
    return out;
  }
  function toBytes(value, what) {
    if (value instanceof Uint8Array) return value;
    if (value instanceof ArrayBuffer) return new Uint8Array(value);
    if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    throw new TypeError(what + ' must be bytes (a TypedArray or an ArrayBuffer)');
  }
  function bytesToLatin1(bytes) {
    let out = '';
    for (let i = 0; i < bytes.length; i += 4096) out += String.fromCharCode.apply(null, Array.prototype.slice.call(bytes, i, i + 4096));
    return out;
  }
  // Bytes cross into the host as hex: strings passed to the host are C strings, and a NUL would end them.
  function bytesToHex(bytes) {
    let out = '';
    for (let i = 0; i < bytes.length; i++) out += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
    return out;
  }
  function hexToBytes(hex) {
    const bytes = new Uint8Array(hex.length >> 1);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.substr(i * 2, 2), 16);
    return bytes;
  }
  function latin1ToBytes(text) {
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 255;
    return bytes;
  }
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  function btoa(input) {
    const text = String(input);
    let out = '';
    for (let i = 0; i < text.length; i += 3) {
      const a = text.charCodeAt(i), b = text.charCodeAt(i + 1), c = text.charCodeAt(i + 2);
      if (a > 255 || b > 255 || c > 255) throw new Error('btoa: the string has characters outside Latin-1');
      const n = (a << 16) | ((b || 0) << 8) | (c || 0);
      out += alphabet[(n >> 18) & 63] + alphabet[(n >> 12) & 63] + (i + 1 < text.length ? alphabet[(n >> 6) & 63] : '=') + (i + 2 < text.length ? alphabet[n & 63] : '=');
    }
    return out;
  }
  function atob(input) {
    let text = String(input).replace(/[\t\n\f\r ]/g, '');
    if (text.length % 4 === 0) text = text.replace(/==?$/, '');
    if (text.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(text)) throw new Error('atob: the string is not valid base64');
    let out = '';
    let bits = 0, value = 0;
    for (let i = 0; i < text.length; i++) {
      value = (value << 6) | alphabet.indexOf(text[i]);
      bits += 6;
      if (bits >= 8) { bits -= 8; out += String.fromCharCode((value >> bits) & 255); }
    }
    return out;
  }

  class TextEncoder {
    get encoding() { return 'utf-8'; }
    encode(text) { return utf8Encode(text === undefined ? '' : String(text)); }
  }
  class TextDecoder {
    constructor(label) {
      const name = label === undefined ? 'utf-8' : String(label).trim().toLowerCase();
      if (name !== 'utf-8' && name !== 'utf8') throw new RangeError('TextDecoder supports utf-8 only, not ' + label);
    }
    get encoding() { return 'utf-8'; }
    decode(bytes) {
      if (bytes === undefined) return '';
      let text = utf8Decode(toBytes(bytes, 'TextDecoder.decode input'));
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      return text;
    }
  }

  // application/x-www-form-urlencoded, as URLSearchParams reads and writes it.
  function formEncode(text) {
    return encodeURIComponent(text).replace(/%20/g, '+').replace(/[!'()~]/g, function (c) { return '%' + c.charCodeAt(0).toString(16).toUpperCase(); });
  }
  function formDecode(text) {
    const plus = text.replace(/\+/g, ' ');
    try { return decodeURIComponent(plus); } catch (e) { return plus; }
  }
  class URLSearchParams {
    constructor(init) {
      this._list = [];
      this._url = null;
      if (init === undefined || init === null) return;
      if (typeof init === 'string') this._parse(init);
      else if (init instanceof URLSearchParams) this._list = init._list.map(function (pair) { return [pair[0], pair[1]]; });
      else if (typeof init[Symbol.iterator] === 'function') {
        for (const pair of init) {
          const entry = Array.from(pair);
          if (entry.length !== 2) throw new TypeError('URLSearchParams: each pair must have a name and a value');
          this._list.push([String(entry[0]), String(entry[1])]);
        }
      } else if (typeof init === 'object') {
        for (const key of Object.keys(init)) this._list.push([key, String(init[key])]);
      } else this._parse(String(init));
    }
    _parse(text) {
      this._list = [];
      const query = text.charAt(0) === '?' ? text.slice(1) : text;
      for (const part of query.split('&')) {
        if (part === '') continue;
        const at = part.indexOf('=');
        this._list.push(at < 0 ? [formDecode(part), ''] : [formDecode(part.slice(0, at)), formDecode(part.slice(at + 1))]);
      }
    }
    _changed() { if (this._url) this._url._setSearchFromParams(this.toString()); }
    get size() { return this._list.length; }
    append(name, value) { this._list.push([String(name), String(value)]); this._changed(); }
    delete(name) { name = String(name); this._list = this._list.filter(function (pair) { return pair[0] !== name; }); this._changed(); }
    get(name) { name = String(name); const found = this._list.find(function (pair) { return pair[0] === name; }); return found ? found[1] : null; }
    getAll(name) { name = String(name); return this._list.filter(function (pair) { return pair[0] === name; }).map(function (pair) { return pair[1]; }); }
    has(name) { name = String(name); return this._list.some(function (pair) { return pair[0] === name; }); }
    set(name, value) {
      name = String(name); value = String(value);
      const at = this._list.findIndex(function (pair) { return pair[0] === name; });
      if (at < 0) this._list.push([name, value]);
      else { this._list[at][1] = value; this._list = this._list.filter(function (pair, index) { return index <= at || pair[0] !== name; }); }
      this._changed();
    }
    sort() { this._list.sort(function (a, b) { return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0; }); this._changed(); }
    forEach(callback, thisArg) { for (const pair of this._list) callback.call(thisArg, pair[1], pair[0], this); }
    keys() { return this._list.map(function (pair) { return pair[0]; })[Symbol.iterator](); }
    values() { return this._list.map(function (pair) { return pair[1]; })[Symbol.iterator](); }
    entries() { return this._list.map(function (pair) { return [pair[0], pair[1]]; })[Symbol.iterator](); }
    [Symbol.iterator]() { return this.entries(); }
    toString() { return this._list.map(function (pair) { return formEncode(pair[0]) + '=' + formEncode(pair[1]); }).join('&'); }
  }

  // URL parsing is the worker's (Node's WHATWG parser): host.url answers the parts as JSON, or an error.
  const urlParts = ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash'];
  function parseUrl(input, base, property, value) {
    const answer = JSON.parse(hostUrl(String(input), base === undefined ? '' : String(base), base !== undefined, property || '', value === undefined ? '' : String(value)));
    if (answer.error) throw new TypeError(answer.error);
    return answer;
  }
  class URL {
    constructor(input, base) {
      this._parts = parseUrl(input instanceof URL ? input.href : input, base instanceof URL ? base.href : base);
      this._params = null;
    }
    static canParse(input, base) { try { new URL(input, base); return true; } catch (e) { return false; } }
    _set(property, value) {
      this._parts = parseUrl(this._parts.href, undefined, property, value);
      if (this._params && property !== 'searchFromParams') this._params._parse(this._parts.search);
    }
    _setSearchFromParams(text) { this._parts = parseUrl(this._parts.href, undefined, 'search', text); }
    get searchParams() {
      if (!this._params) { this._params = new URLSearchParams(this._parts.search); this._params._url = this; }
      return this._params;
    }
    toString() { return this._parts.href; }
    toJSON() { return this._parts.href; }
  }
  for (const part of urlParts) {
    Object.defineProperty(URL.prototype, part, {
      get: function () { return this._parts[part]; },
      set: part === 'origin' ? undefined : function (value) { this._set(part, value); },
      configurable: true,
    });
  }

  const crypto = {
    getRandomValues: function (array) {
      if (!(array instanceof Int8Array || array instanceof Uint8Array || array instanceof Uint8ClampedArray || array instanceof Int16Array || array instanceof Uint16Array || array instanceof Int32Array || array instanceof Uint32Array)) {
        throw new TypeError('crypto.getRandomValues needs an integer TypedArray');
      }
      if (array.byteLength > 65536) throw new RangeError('crypto.getRandomValues: at most 65536 bytes at a time');
      const random = hexToBytes(hostRandom(array.byteLength));
      new Uint8Array(array.buffer, array.byteOffset, array.byteLength).set(random);
      return array;
    },
    randomUUID: function () {
      const b = hexToBytes(hostRandom(16));
      b[6] = (b[6] & 15) | 64; b[8] = (b[8] & 63) | 128;
      const hex = Array.prototype.map.call(b, function (x) { return (x < 16 ? '0' : '') + x.toString(16); }).join('');
      return hex.slice(0, 8) + '-' + hex.slice(8, 12) + '-' + hex.slice(12, 16) + '-' + hex.slice(16, 20) + '-' + hex.slice(20);
    },
    subtle: {
      digest: function (algorithm, data) {
        return new Promise(function (resolve) {
          const name = String(typeof algorithm === 'object' && algorithm !== null ? algorithm.name : algorithm).toUpperCase();
          if (name !== 'SHA-256' && name !== 'SHA-512' && name !== 'SHA-384' && name !== 'SHA-1') {
            throw new Error('crypto.subtle.digest supports SHA-1, SHA-256, SHA-384 and SHA-512, not ' + name);
          }
          const bytes = hexToBytes(hostDigest(name, bytesToHex(toBytes(data, 'digest data'))));
          resolve(bytes.buffer);
        });
      },
    },
  };

  class Headers {
    constructor(init) {
      this._map = new Map();
      if (!init) return;
      const pairs = init instanceof Headers ? Array.from(init.entries()) : Array.isArray(init) ? init : Object.keys(init).map(function (k) { return [k, init[k]]; });
      for (const pair of pairs) this.append(pair[0], pair[1]);
    }
    append(name, value) {
      const key = String(name).toLowerCase();
      const old = this._map.get(key);
      this._map.set(key, old === undefined ? String(value) : old + ', ' + String(value));
    }
    set(name, value) { this._map.set(String(name).toLowerCase(), String(value)); }
    get(name) { const value = this._map.get(String(name).toLowerCase()); return value === undefined ? null : value; }
    has(name) { return this._map.has(String(name).toLowerCase()); }
    delete(name) { this._map.delete(String(name).toLowerCase()); }
    forEach(callback, thisArg) { for (const entry of this._map) callback.call(thisArg, entry[1], entry[0], this); }
    entries() { return Array.from(this._map.entries()).sort()[Symbol.iterator](); }
    keys() { return Array.from(this._map.keys()).sort()[Symbol.iterator](); }
    values() { return Array.from(this.entries()).map(function (e) { return e[1]; })[Symbol.iterator](); }
    [Symbol.iterator]() { return this.entries(); }
  }
  class Response {
    constructor(answer) {
      this.status = answer.status;
      this.statusText = answer.statusText;
      this.ok = answer.status >= 200 && answer.status < 300;
      this.url = answer.url;
      this.redirected = Boolean(answer.redirected);
      this.headers = new Headers(answer.headers);
      this._latin1 = atob(answer.base64);
      this.bodyUsed = false;
    }
    _take() {
      if (this.bodyUsed) return Promise.reject(new TypeError('The response body was already read'));
      this.bodyUsed = true;
      return Promise.resolve(this._latin1);
    }
    text() { return this._take().then(function (latin1) { return utf8Decode(latin1ToBytes(latin1)); }); }
    json() { return this.text().then(function (text) { return JSON.parse(text); }); }
    arrayBuffer() { return this._take().then(function (latin1) { return latin1ToBytes(latin1).buffer; }); }
  }
  function fetch(input, init) {
    return Promise.resolve().then(function () {
      const options = init || {};
      const url = input instanceof URL ? input.href : String(input);
      const headers = [];
      new Headers(options.headers).forEach(function (value, name) { headers.push([name, value]); });
      let body;
      if (options.body === undefined || options.body === null) body = undefined;
      else if (typeof options.body === 'string') body = { latin1: bytesToLatin1(utf8Encode(options.body)) };
      else if (options.body instanceof URLSearchParams) {
        body = { latin1: options.body.toString() };
        if (!headers.some(function (h) { return h[0] === 'content-type'; })) headers.push(['content-type', 'application/x-www-form-urlencoded;charset=UTF-8']);
      } else body = { latin1: bytesToLatin1(toBytes(options.body, 'fetch body')) };
      const method = options.method === undefined ? 'GET' : String(options.method).toUpperCase();
      return call('fetch', 'fetch', [{ url: url, method: method, headers: headers, body: body }]);
    }).then(function (answer) { return new Response(answer); });
  }

  const globals = {
    console: console, setTimeout: setTimeout, clearTimeout: clearTimeout, TextEncoder: TextEncoder,
    TextDecoder: TextDecoder, btoa: btoa, atob: atob, URL: URL, URLSearchParams: URLSearchParams,
    crypto: crypto, fetch: fetch, Headers: Headers, Response: Response,
  };
  for (const name of Object.keys(globals)) {
    Object.defineProperty(globalThis, name, { value: globals[name], writable: true, configurable: true, enumerable: false });
  }

  function require(name) {
    throw new Error('Bots cannot load modules ("' + name + '"): use the medplum client, fetch and the event');
  }
  function start(wrapper, eventJson) {
    const event = JSON.parse(eventJson);
    const module = { exports: {} };
    wrapper.call(undefined, module.exports, module, require, medplum, event);
    const handler = module.exports && module.exports.handler;
    if (typeof handler !== 'function') {
      send({ type: 'failed', message: 'The bot does not export a handler function (exports.handler = async (medplum, event) => …)' });
      return;
    }
    Promise.resolve()
      .then(function () { return handler(medplum, event); })
      .then(function (value) {
        let result;
        if (value === undefined) result = { kind: 'none' };
        else if (typeof value === 'string') result = { kind: 'text', text: value };
        else if (value instanceof Uint8Array || value instanceof ArrayBuffer) result = { kind: 'bytes', latin1: bytesToLatin1(toBytes(value, 'result')) };
        else result = { kind: 'json', json: JSON.stringify(value) };
        send({ type: 'done', result: result });
      })
      .catch(function (error) {
        send({ type: 'failed', message: error && error.message ? String(error.message) : String(error) });
      });
  }
  return { start: start, deliver: deliver, fire: fire };
})
`;
