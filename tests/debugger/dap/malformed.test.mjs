// malformed.test.mjs - `lockstep dap` answers bad input with DAP error
// responses and stays alive: garbage Content-Length, bad JSON, unknown
// commands, missing or wrong arguments. A raw client writes the bytes; the
// DebugClient from @vscode/debugadapter-testsupport then proves the adapter
// still answers. It must not depend on a host program.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { DebugClient, lockstep } from './common.mjs';

// A raw connection: write any bytes, read whole messages.
function raw() {
  const p = spawn(lockstep, ['dap'], { stdio: ['pipe', 'pipe', 'inherit'] });
  let buf = Buffer.alloc(0);
  const msgs = [];
  let wake = null;
  p.stdout.on('data', (d) => {
    buf = Buffer.concat([buf, d]);
    for (;;) {
      const i = buf.indexOf('\r\n\r\n');
      if (i < 0) break;
      const m = /Content-Length: (\d+)/.exec(buf.subarray(0, i).toString());
      assert.ok(m, 'the adapter always frames with Content-Length');
      const n = +m[1];
      if (buf.length < i + 4 + n) break;
      msgs.push(JSON.parse(buf.subarray(i + 4, i + 4 + n).toString()));
      buf = buf.subarray(i + 4 + n);
    }
    if (wake) wake();
  });
  return {
    proc: p,
    write: (s) => p.stdin.write(s),
    send: (obj) => {
      const j = JSON.stringify(obj);
      p.stdin.write(`Content-Length: ${Buffer.byteLength(j)}\r\n\r\n${j}`);
    },
    async next(pred = () => true) {
      const deadline = Date.now() + 20000;
      for (;;) {
        const k = msgs.findIndex(pred);
        if (k >= 0) return msgs.splice(k, 1)[0];
        if (Date.now() > deadline) throw new Error('no answer from the adapter');
        await new Promise((r) => { wake = r; setTimeout(r, 200); });
      }
    },
  };
}

const isResp = (m) => m.type === 'response';

test('garbage Content-Length gets an error response, then requests work', async () => {
  const c = raw();
  c.write('Content-Length: banana\r\n\r\n');
  const e = await c.next(isResp);
  assert.equal(e.success, false);
  assert.match(e.message, /Content-Length/);
  c.write('X-Nothing: 1\r\n\r\n');
  assert.match((await c.next(isResp)).message, /no Content-Length/);
  c.send({ seq: 1, type: 'request', command: 'initialize', arguments: { adapterID: 'lockstep' } });
  const ok = await c.next((m) => isResp(m) && m.request_seq === 1);
  assert.equal(ok.success, true);
  c.proc.kill();
});

test('bad JSON and non-requests get error responses', async () => {
  const c = raw();
  c.write('Content-Length: 9\r\n\r\n{"seq": 1');
  assert.match((await c.next(isResp)).message, /malformed JSON/);
  c.write('Content-Length: 5\r\n\r\n[1,2]');
  assert.match((await c.next(isResp)).message, /not a request/);
  c.send({ seq: 7, type: 'request' });
  const e = await c.next(isResp);
  assert.equal(e.success, false);
  assert.equal(e.request_seq, 7);
  c.send({ seq: 9, type: 'request', command: 'scopes', arguments: 5 });
  assert.match((await c.next((m) => isResp(m) && m.request_seq === 9)).message, /'arguments' must be an object/);
  c.send({ seq: 8, type: 'request', command: 'threads' });
  assert.equal((await c.next((m) => isResp(m) && m.request_seq === 8)).success, true);
  c.proc.kill();
});

test('unknown commands and bad arguments get error responses', async () => {
  const dc = new DebugClient(lockstep, 'dap', 'lockstep');
  dc.defaultTimeout = 20000;
  await dc.start();
  try {
    await dc.initializeRequest({ adapterID: 'lockstep' });
    await assert.rejects(dc.customRequest('frobnicate', {}), /unknown or unsupported request 'frobnicate'/);
    await assert.rejects(dc.launchRequest({}), /needs 'program'/);
    await assert.rejects(dc.launchRequest({ program: '/nonexistent/prog' }), /cannot run/);
    await assert.rejects(dc.launchRequest({ program: 'x', args: 'notalist' }), /'args' must be an array/);
    await assert.rejects(dc.setBreakpointsRequest({ breakpoints: [{ line: 3 }] }), /source.path/);
    await assert.rejects(dc.setBreakpointsRequest({ source: { path: '/tmp/x.cl' }, breakpoints: [{ line: -4 }] }), /positive 'line'/);
    await assert.rejects(dc.stackTraceRequest({}), /no kernel is stopped|program is not running/);
    await assert.rejects(dc.variablesRequest({}), /variablesReference/);
    await assert.rejects(dc.evaluateRequest({ expression: '1+1' }), /not running|no kernel/);
    await assert.rejects(dc.customRequest('readMemory', { memoryReference: 'zz' }), /memoryReference/);
    // still alive
    const r = await dc.threadsRequest();
    assert.equal(r.success, true);
  } finally {
    await dc.stop();
  }
});
