import { describe, expect, it } from 'vitest';
import { runInSandbox, type ClientCall, type SandboxRun } from './botSandbox';

const noCalls: ClientCall = async (method) => {
  throw new Error(`unexpected call ${method}`);
};

function run(code: string, extra: Partial<SandboxRun> = {}) {
  return runInSandbox({ code, event: { input: 'hi' }, timeoutMs: 2000, memoryMb: 64, onCall: noCalls, ...extra });
}

describe('bot sandbox', () => {
  it('runs exports.handler with the event and answers its JSON value and logs', async () => {
    const outcome = await run(
      `exports.handler = async (medplum, event) => { console.log('got', event.input); return { echo: event.input }; };`,
    );
    expect(outcome).toEqual({ ok: true, value: { kind: 'json', value: { echo: 'hi' } }, logs: ['got hi'] });
  });

  it('answers text and bytes as such', async () => {
    expect(await run(`exports.handler = async () => 'plain';`)).toMatchObject({
      value: { kind: 'text', text: 'plain' },
    });
    const bytes = await run(`exports.handler = async () => new Uint8Array([0, 200, 255]);`);
    expect(bytes.ok && bytes.value.kind === 'bytes' && [...bytes.value.bytes]).toEqual([0, 200, 255]);
    expect(await run(`exports.handler = async () => undefined;`)).toMatchObject({ value: { kind: 'none' } });
  });

  it('has timers of its own', async () => {
    const outcome = await run(`exports.handler = async () => {
      const order = [];
      const cancelled = setTimeout(() => order.push('never'), 5);
      clearTimeout(cancelled);
      await new Promise((resolve) => setTimeout(() => { order.push('late'); resolve(); }, 20));
      await new Promise((resolve) => setTimeout(resolve, 0, order.push('soon')));
      return order;
    };`);
    expect(outcome).toMatchObject({ ok: true, value: { kind: 'json', value: ['late', 'soon'] } });
  });

  it('forwards client calls and their answers and errors', async () => {
    const calls: [string, unknown[]][] = [];
    const onCall: ClientCall = async (method, args) => {
      calls.push([method, args]);
      if (method === 'readResource') return { resourceType: 'Patient', id: args[1] };
      throw Object.assign(new Error('Not found'), { outcome: { resourceType: 'OperationOutcome' }, status: 404 });
    };
    const outcome = await run(
      `exports.handler = async (medplum) => {
         const patient = await medplum.readResource('Patient', 'p1');
         try { await medplum.searchOne('Task', { code: 'x' }); } catch (e) { return { id: patient.id, error: e.message, status: e.status }; }
       };`,
      { onCall },
    );
    expect(outcome).toMatchObject({
      ok: true,
      value: { kind: 'json', value: { id: 'p1', error: 'Not found', status: 404 } },
    });
    expect(calls).toEqual([
      ['readResource', ['Patient', 'p1']],
      ['searchOne', ['Task', { code: 'x' }]],
    ]);
  });

  it('reports a throwing bot, a syntax error, a missing handler and a require', async () => {
    expect(await run(`exports.handler = async () => { throw new Error('bad input'); };`)).toMatchObject({
      ok: false,
      failure: 'error',
      message: 'bad input',
    });
    expect(await run(`exports.handler = async () => {`)).toMatchObject({ ok: false, failure: 'error' });
    expect(await run(`const x = 1;`)).toMatchObject({
      ok: false,
      message: expect.stringContaining('does not export a handler'),
    });
    expect(await run(`const core = require('fs'); exports.handler = async () => 1;`)).toMatchObject({
      ok: false,
      message: expect.stringContaining('cannot load modules'),
    });
  });

  it('stops a bot that never finishes, sync or async', async () => {
    expect(await run(`exports.handler = async () => { for (;;) {} };`, { timeoutMs: 300 })).toMatchObject({
      ok: false,
      failure: 'timeout',
    });
    expect(await run(`exports.handler = () => new Promise(() => {});`, { timeoutMs: 300 })).toMatchObject({
      ok: false,
      failure: 'timeout',
    });
  });

  it('stops a bot that eats memory', async () => {
    const outcome = await run(
      `exports.handler = async () => { const keep = []; for (;;) keep.push(new Array(100000).fill('x' + keep.length)); };`,
      { timeoutMs: 4000, memoryMb: 32 },
    );
    expect(outcome).toMatchObject({ ok: false, failure: 'memory' });
  });

  it('runs the bot in QuickJS: compiling code finds no Node realm, no process, no require', async () => {
    const outcome = await run(`exports.handler = async (medplum) => {
      const attempts = [];
      for (const probe of [
        () => eval('typeof process'),
        () => new Function('return typeof process')(),
        () => medplum.constructor.constructor('return typeof process')(),
        () => console.log.constructor('return typeof require')(),
        () => typeof process === 'undefined' ? null : process.pid,
        () => typeof globalThis.Buffer,
      ]) {
        try { attempts.push(String(probe())); } catch (e) { attempts.push('refused'); }
      }
      return attempts;
    };`);
    expect(outcome).toMatchObject({
      ok: true,
      value: { kind: 'json', value: ['undefined', 'undefined', 'undefined', 'undefined', 'null', 'undefined'] },
    });
  });

  it('gives the web globals bots use: encoders, base64, URL, crypto', async () => {
    const outcome = await run(`exports.handler = async () => {
      const bytes = new TextEncoder().encode('héllo €😀');
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode('abc')));
      const sha512 = new Uint8Array(await crypto.subtle.digest('SHA-512', new Uint8Array([])));
      const random = crypto.getRandomValues(new Uint8Array(32));
      const url = new URL('/path/x?a=1&b=two+words#top', 'https://example.org:8443/base/');
      url.searchParams.append('c', 'd&e');
      const params = new URLSearchParams({ q: 'a b', n: '1' });
      params.set('q', 'x/y');
      let bad = 'accepted';
      try { new URL('not a url'); } catch (e) { bad = e.name; }
      return {
        bytes: Array.from(bytes),
        text: new TextDecoder().decode(bytes),
        b64: btoa('Hello, bot!'),
        unb64: atob('SGVsbG8sIGJvdCE='),
        sha256: Array.from(digest).map((b) => b.toString(16).padStart(2, '0')).join(''),
        sha512Length: sha512.length,
        randomDiffers: random.some((b) => b !== 0) && random.length === 32,
        uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(crypto.randomUUID()),
        href: url.href, host: url.host, b: url.searchParams.get('b'),
        params: params.toString(), bad,
      };
    };`);
    expect(outcome).toMatchObject({
      ok: true,
      value: {
        kind: 'json',
        value: {
          bytes: [...Buffer.from('héllo €😀', 'utf8')],
          text: 'héllo €😀',
          b64: 'SGVsbG8sIGJvdCE=',
          unb64: 'Hello, bot!',
          sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
          sha512Length: 64,
          randomDiffers: true,
          uuid: true,
          href: 'https://example.org:8443/path/x?a=1&b=two+words&c=d%26e#top',
          host: 'example.org:8443',
          b: 'two words',
          params: 'q=x%2Fy&n=1',
          bad: 'TypeError',
        },
      },
    });
  });

  it('hands fetch to the host and gives the answer back as a Response', async () => {
    const seen: unknown[] = [];
    const outcome = await run(
      `exports.handler = async () => {
        const response = await fetch('https://api.example/things?x=1', {
          method: 'post', headers: { 'Content-Type': 'application/json', 'X-Key': 'k' }, body: JSON.stringify({ a: 'é' }),
        });
        let refused;
        try { await fetch('https://refused.example/'); } catch (e) { refused = e.message; }
        return { ok: response.ok, status: response.status, statusText: response.statusText,
                 type: response.headers.get('Content-Type'), body: await response.json(), refused };
      };`,
      {
        onFetch: async (request) => {
          seen.push(request);
          if (request.url.includes('refused')) throw new Error('fetch: not allowed');
          return {
            url: request.url,
            status: 201,
            statusText: 'Created',
            redirected: false,
            headers: [['content-type', 'application/json']],
            base64: Buffer.from(JSON.stringify({ made: 'ü' })).toString('base64'),
          };
        },
      },
    );
    expect(outcome).toMatchObject({
      ok: true,
      value: {
        kind: 'json',
        value: {
          ok: true,
          status: 201,
          statusText: 'Created',
          type: 'application/json',
          body: { made: 'ü' },
          refused: 'fetch: not allowed',
        },
      },
    });
    expect(seen[0]).toEqual({
      url: 'https://api.example/things?x=1',
      method: 'POST',
      headers: [
        ['content-type', 'application/json'],
        ['x-key', 'k'],
      ],
      body: { latin1: Buffer.from(JSON.stringify({ a: 'é' })).toString('latin1') },
    });
  });

  it('stops deep recursion and huge strings as the bot’s errors', async () => {
    expect(
      await run(`exports.handler = async () => { function f(n) { return f(n + 1) + 1; } return f(0); };`),
    ).toMatchObject({ ok: false, failure: 'error', message: expect.stringContaining('stack overflow') });
    expect(await run(`exports.handler = async () => { let s = 'x'; for (;;) s += s; };`)).toMatchObject({
      ok: false,
    });
  });
});
