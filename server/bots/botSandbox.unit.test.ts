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
      { timeoutMs: 20_000, memoryMb: 32 },
    );
    expect(outcome).toMatchObject({ ok: false, failure: 'memory' });
  });

  it('gives the bot no way to compile code or reach the worker’s process', async () => {
    const outcome = await run(`exports.handler = async (medplum) => {
      const attempts = [];
      for (const probe of [
        () => eval('1 + 1'),
        () => new Function('return process')(),
        () => medplum.constructor.constructor('return process')(),
        () => console.log.constructor('return process')(),
        () => typeof process === 'undefined' ? null : process.pid,
      ]) {
        try { attempts.push(String(probe())); } catch (e) { attempts.push('refused'); }
      }
      return attempts;
    };`);
    expect(outcome).toMatchObject({
      ok: true,
      value: { kind: 'json', value: ['refused', 'refused', 'refused', 'refused', 'null'] },
    });
  });
});
