import { beforeAll, describe, expect, inject, it } from 'vitest';
import { baseUrl, issueText } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { botAuditEvents, createBot, executeBot } from './bots.test-support';

/**
 * Issue 14 item 1: bots escaped node:vm to the server's process. These bots replay the known
 * escapes; each probe reports what it reached, and the server's env marker (a value only the
 * server's process.env holds) must appear nowhere: not in the answer, not in the bot's log.
 */
let token: string;
let marker: string;

beforeAll(async () => {
  token = (await registerProjectOwner('Sandbox Attackers')).tokens.access_token;
  marker = inject('serverEnvMarker');
  expect(process.env.HEARTH_TEST_ENV_MARKER).toBe(marker);
});

/** Runs probes (name → function) in a bot; each answers a string, a throw answers `threw: message`. */
function probeBot(probes: string): string {
  return `
    const probes = {${probes}};
    // Anything that reaches a Node process shows its env here.
    function leak(processLike) {
      if (!processLike || typeof processLike !== 'object') return 'no process (' + typeof processLike + ')';
      return 'ESCAPED ' + JSON.stringify(processLike.env);
    }
    exports.handler = async (medplum, event) => {
      const found = {};
      for (const name of Object.keys(probes)) {
        try { found[name] = String(await probes[name](medplum, event)); } catch (e) { found[name] = 'threw: ' + e.message; }
        console.log(name, found[name]);
      }
      return found;
    };`;
}

async function runProbes(probes: string): Promise<Record<string, string>> {
  const botId = await createBot(token, probeBot(probes));
  const answer = await executeBot(token, botId);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const text = JSON.stringify(answer.body);
  expect(text).not.toContain(marker);
  expect(text).not.toContain('ESCAPED');
  const [audit] = await botAuditEvents(token, botId);
  expect(audit.outcome).toBe('0');
  expect(audit.outcomeDesc).not.toContain(marker);
  expect(audit.outcomeDesc).not.toContain('ESCAPED');
  return answer.body;
}

describe('bot sandbox escapes (issue 14 item 1)', () => {
  it('Error.prepareStackTrace call-site walking reaches no process', async () => {
    const found = await runProbes(`
      callSites: () => {
        Error.prepareStackTrace = (error, sites) => sites;
        const sites = new Error('probe').stack;
        Error.prepareStackTrace = undefined;
        if (!Array.isArray(sites)) return 'no call sites (' + typeof sites + ')';
        const reached = [];
        for (const site of sites) {
          for (const value of [site.getFunction && site.getFunction(), site.getThis && site.getThis()]) {
            if (!value) continue;
            try { reached.push(leak(value.constructor.constructor('return process')())); } catch (e) { reached.push('threw: ' + e.message); }
          }
        }
        return reached.join('; ') || 'nothing reached';
      },
      captureStackTrace: () => {
        const holder = {};
        if (typeof Error.captureStackTrace === 'function') Error.captureStackTrace(holder);
        return typeof holder.stack === 'string' && holder.stack.includes('node:') ? 'ESCAPED node frames' : 'no node frames';
      },
    `);
    expect(found.callSites).not.toMatch(/ESCAPED/);
    expect(found.captureStackTrace).toBe('no node frames');
  });

  it('constructor.constructor, arguments.callee.caller, the client object and console reach no process', async () => {
    const found = await runProbes(`
      thisConstructor: function () { return leak(this.constructor.constructor('return process')()); },
      calleeCaller: function () {
        function inner() { return arguments.callee.caller; }
        const caller = inner();
        if (!caller) return 'no caller';
        return leak(caller.constructor('return process')());
      },
      medplumConstructor: (medplum) => leak(medplum.constructor.constructor('return process')()),
      medplumMethod: (medplum) => leak(medplum.readResource.constructor('return process')()),
      consoleConstructor: () => leak(console.log.constructor('return this.process')()),
      globalThisConstructor: () => leak(globalThis.constructor.constructor('return globalThis.process')()),
      eventConstructor: (medplum, event) => leak(event.constructor.constructor('return process')()),
      functionEval: () => leak(Function('return process')()),
      indirectEval: () => leak((0, eval)('typeof process === "undefined" ? undefined : process')),
    `);
    for (const [name, value] of Object.entries(found)) {
      expect(value, name).toMatch(/^(no process|threw: |no caller)/);
    }
  });

  it('proxies given to the client, to console and as the result run only in the sandbox', async () => {
    const found = await runProbes(`
      proxyArgument: async (medplum) => {
        // Against node:vm, a trap run by host code receives host objects (target, receiver, errors).
        const seen = new Set();
        let busy = false;
        const handler = {};
        for (const trapName of ['get', 'ownKeys', 'getOwnPropertyDescriptor', 'has', 'getPrototypeOf']) {
          handler[trapName] = function () {
            if (!busy) {
              busy = true;
              for (const value of arguments) {
                if (!value || (typeof value !== 'object' && typeof value !== 'function')) continue;
                try { seen.add(trapName + ': ' + leak(value.constructor.constructor('return process')())); }
                catch (e) { seen.add(trapName + ': threw ' + e.message); }
              }
              busy = false;
            }
            return Reflect[trapName].apply(null, arguments);
          };
        }
        const trap = new Proxy({ id: 'x' }, handler);
        try { await medplum.readResource('Patient', trap); } catch (e) { /* the read fails */ }
        console.log(trap);
        return [...seen].join('; ') || 'no trap ran';
      },
      proxyOnPrototype: () => {
        Object.setPrototypeOf(Object.prototype, new Proxy({}, { get(t, key) { return undefined; } }));
        return 'prototype proxy set';
      },
    `);
    expect(found.proxyArgument).toMatch(/^get: /);
    expect(found.proxyArgument).not.toMatch(/ESCAPED/);
    expect(found.proxyOnPrototype).toMatch(/^(threw: |prototype proxy set)/);
  });

  it('import(), require, globalThis.process, env, fs and Node globals are absent', async () => {
    const found = await runProbes(`
      dynamicImport: async () => { const fs = await import('node:fs'); return 'ESCAPED ' + typeof fs.readFileSync; },
      dynamicImportProcess: async () => { const p = await import('node:process'); return leak(p.default || p); },
      requireFs: () => { const fs = require('fs'); return 'ESCAPED ' + typeof fs.readFileSync; },
      moduleRequire: () => typeof module.require === 'function' ? 'ESCAPED module.require' : 'no module.require',
      globalProcess: () => leak(globalThis.process),
      bareProcess: () => leak(process),
      processEnv: () => 'ESCAPED ' + JSON.stringify(process.env),
      nodeGlobals: () => ['Buffer', 'global', 'require', '__dirname', 'process', 'Deno', 'Bun', 'std', 'os', 'host', '__host', 'WebAssembly']
        .filter((name) => typeof globalThis[name] !== 'undefined').join(',') || 'none',
      readFile: async () => { const fs = await import('fs'); return 'ESCAPED ' + fs.readFileSync('/etc/hostname', 'utf8'); },
    `);
    expect(found.dynamicImport).toMatch(/^threw: /);
    expect(found.dynamicImportProcess).toMatch(/^threw: /);
    expect(found.requireFs).toMatch(/^threw: Bots cannot load modules/);
    expect(found.moduleRequire).toBe('no module.require');
    expect(found.globalProcess).toBe('no process (undefined)');
    expect(found.bareProcess).toMatch(/^threw: .*process/);
    expect(found.processEnv).toMatch(/^threw: /);
    expect(found.nodeGlobals).toBe('none');
    expect(found.readFile).toMatch(/^threw: /);
  });

  it('gives the bot its own secrets and token, nothing of the server’s configuration', async () => {
    const found = await runProbes(`
      eventKeys: (medplum, event) => Object.keys(event).sort().join(','),
      requester: (medplum, event) => event.requester.reference,
      baseUrl: (medplum) => medplum.getBaseUrl(),
      unknownMethod: (medplum) => medplum.setBaseUrl('http://elsewhere.example/'),
    `);
    expect(found.eventKeys).toBe('bot,contentType,input,requester,secrets,traceId');
    // Medplum's event.requester: the profile that ran the bot (the caller of $execute).
    expect(found.requester).toMatch(/^Practitioner\/[A-Za-z0-9-]+$/);
    expect(found.baseUrl).toBe(baseUrl());
    expect(found.unknownMethod).toBe('threw: medplum.setBaseUrl is not available to bots');
  });

  it('stops a bot looping forever with 408 while the server keeps answering', async () => {
    const botId = await createBot(token, `exports.handler = async () => { for (;;) {} };`, { timeout: 2 });
    const order: string[] = [];
    const run = executeBot(token, botId).then((answer) => {
      order.push('bot');
      return answer;
    });
    // The bot's loop runs on another thread: the server answers while it spins.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const health = await fetch(new URL('healthcheck', baseUrl()));
    order.push('health');
    expect(health.status).toBe(200);
    const answer = await run;
    expect(order).toEqual(['health', 'bot']);
    expect(answer.status).toBe(408);
    expect(issueText(answer.body)).toBe('Bot did not finish within 2000 ms');
    const loopInJobs = await createBot(token, `exports.handler = async () => { for (;;) await null; };`, {
      timeout: 1,
    });
    expect((await executeBot(token, loopInJobs)).status).toBe(408);
    expect((await fetch(new URL('healthcheck', baseUrl()))).status).toBe(200);
  });

  it('stops a bot allocating without bound with a memory failure, and the next bot runs', async () => {
    for (const code of [
      `exports.handler = async () => { const keep = []; for (;;) keep.push(new Array(100000).fill(keep.length)); };`,
      `exports.handler = async () => { const keep = []; for (;;) keep.push(new ArrayBuffer(8 * 1024 * 1024)); };`,
      `exports.handler = async () => { const keep = []; for (;;) { try { keep.push('x'.repeat(1 << 20) + keep.length); } catch (e) { /* keep trying */ } } };`,
    ]) {
      const botId = await createBot(token, code, { timeout: 5 });
      const answer = await executeBot(token, botId);
      // Either the engine's allocator refuses (500, memory) or a bot that swallows that error runs out of time.
      expect([500, 408], JSON.stringify(answer.body)).toContain(answer.status);
      if (answer.status === 500) expect(issueText(answer.body)).toMatch(/^Bot ran out of memory \(limit \d+ MB\)/);
    }
    expect((await fetch(new URL('healthcheck', baseUrl()))).status).toBe(200);
    const fine = await createBot(token, `exports.handler = async () => 'still running';`);
    expect((await executeBot(token, fine)).body).toBe('still running');
  });
});
