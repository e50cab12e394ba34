// control.test.mjs - `lockstep dap` requests that change a running session:
// data breakpoints set from the editor, pausing a kernel that runs at full
// speed, writing memory, terminating. The host program is host_run with the
// kernels edit.cl and spin.cl. Tests only drive the adapter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { client, hostProgram, itemOf, launch, launchOf, srcdir, topScope } from './common.mjs';

const hostRun = hostProgram('host_run');

// Launches host_run on a kernel; stops at the first of `lines` (or runs).
async function start(dc, file, global, local, lines) {
  const init = await launch(dc, hostRun, [file, String(global), String(local)]);
  if (lines.length) await dc.setBreakpointsRequest({ source: { path: file }, breakpoints: lines.map((line) => ({ line })) });
  const stopped = lines.length ? dc.waitForEvent('stopped') : null;
  await dc.configurationDoneRequest();
  return { init, stopped: stopped ? (await stopped).body : null };
}

function privateScope(dc, threadId) {
  return topScope(dc, threadId, 'Private');
}

test('a data breakpoint set from the editor stops where the variable changes', async () => {
  const dc = client();
  const file = path.join(srcdir, 'edit.cl');
  try {
    const { init, stopped } = await start(dc, file, 2, 2, [7]);
    assert.equal(init.body.supportsDataBreakpoints, true);
    assert.equal(stopped.reason, 'breakpoint');
    const { ref } = await privateScope(dc, stopped.threadId);
    const info = await dc.customRequest('dataBreakpointInfo', { variablesReference: ref, name: 'acc' });
    assert.equal(info.body.dataId, `${launchOf(stopped.threadId)}:0:acc`);
    assert.deepEqual(info.body.accessTypes, ['write']);
    const bad = await dc.customRequest('setDataBreakpoints', { breakpoints: [{ dataId: 'nonsense' }] });
    assert.equal(bad.body.breakpoints[0].verified, false);
    const set = await dc.customRequest('setDataBreakpoints', { breakpoints: [{ dataId: info.body.dataId }] });
    const dbp = set.body.breakpoints[0];
    assert.equal(dbp.verified, true);
    await dc.setBreakpointsRequest({ source: { path: file }, breakpoints: [] });
    // acc += in[0] leaves acc at 0; acc += in[1] makes it 1
    let s = dc.waitForEvent('stopped');
    await dc.continueRequest({ threadId: stopped.threadId });
    const hit = (await s).body;
    assert.equal(hit.reason, 'data breakpoint');
    assert.deepEqual(hit.hitBreakpointIds, [dbp.id]);
    assert.equal(hit.threadId, stopped.threadId); // work-item 0
    const { top } = await privateScope(dc, hit.threadId);
    const acc = await dc.evaluateRequest({ expression: 'acc', frameId: top.id, context: 'watch' });
    assert.equal(acc.body.result, '1');
    const i = await dc.evaluateRequest({ expression: 'i', frameId: top.id, context: 'watch' });
    assert.equal(i.body.result, '1');
    // cleared: the run goes to the end
    await dc.customRequest('setDataBreakpoints', { breakpoints: [] });
    const exited = dc.waitForEvent('exited');
    await dc.continueRequest({ threadId: hit.threadId });
    await exited;
    assert.match(dc.stdout, /out: 6 38/);
  } finally {
    await dc.stop();
  }
});

test('pause stops a kernel that runs at full speed', async () => {
  const dc = client();
  const file = path.join(srcdir, 'spin.cl');
  try {
    const spinning = new Promise((resolve) => {
      dc.on('output', () => {
        if (dc.stdout.includes('spinning')) resolve();
      });
    });
    await start(dc, file, 1, 1, []);
    await spinning; // the kernel is in its loop now
    const stopped = dc.waitForEvent('stopped');
    await dc.pauseRequest({ threadId: 1 });
    const ev = (await stopped).body;
    assert.equal(ev.reason, 'pause');
    assert.equal(itemOf(ev.threadId), 0);
    const { top, ref } = await privateScope(dc, ev.threadId);
    assert.ok(top.line === 6 || top.line === 7, `paused in the loop, not at line ${top.line}`);
    assert.equal(top.source.path, file);
    const sv = await dc.setVariableRequest({ variablesReference: ref, name: 'stop', value: '3' });
    assert.equal(sv.body.value, '3');
    const exited = dc.waitForEvent('exited');
    await dc.continueRequest({ threadId: ev.threadId });
    await exited;
    assert.match(dc.stdout, /out: 22/);
  } finally {
    await dc.stop();
  }
});

test('writeMemory changes a buffer the rest of the run reads', async () => {
  const dc = client();
  const file = path.join(srcdir, 'edit.cl');
  try {
    const { stopped } = await start(dc, file, 2, 2, [7]);
    const { ref } = await privateScope(dc, stopped.threadId);
    const args = (await dc.variablesRequest({ variablesReference: ref })).body.variables;
    const inArg = args.find((v) => v.name === 'in') ?? (await (async () => {
      const top = (await dc.stackTraceRequest({ threadId: stopped.threadId })).body.stackFrames[0];
      const scopes = (await dc.scopesRequest({ frameId: top.id })).body.scopes;
      const g = scopes.find((sc) => /Global|Arguments/.test(sc.name));
      return (await dc.variablesRequest({ variablesReference: g.variablesReference })).body.variables.find((v) => v.name === 'in');
    })());
    assert.ok(inArg && inArg.memoryReference, 'the pointer argument has a memory reference');
    // in[0..3] of work-item 0 become 100
    const bytes = Buffer.alloc(16);
    for (let k = 0; k < 4; k++) bytes.writeInt32LE(100, 4 * k);
    const wr = await dc.customRequest('writeMemory', { memoryReference: inArg.memoryReference, offset: 0, data: bytes.toString('base64') });
    assert.equal(wr.body.bytesWritten, 16);
    const rd = await dc.customRequest('readMemory', { memoryReference: inArg.memoryReference, offset: 8, count: 4 });
    assert.equal(Buffer.from(rd.body.data, 'base64').readInt32LE(0), 100);
    await assert.rejects(dc.customRequest('writeMemory', { memoryReference: inArg.memoryReference, data: '!!' }), /base64/);
    await dc.setBreakpointsRequest({ source: { path: file }, breakpoints: [] });
    const exited = dc.waitForEvent('exited');
    await dc.continueRequest({ threadId: stopped.threadId });
    await exited;
    assert.match(dc.stdout, /out: 400 38/);
  } finally {
    await dc.stop();
  }
});

test('terminate ends the host program while a kernel is stopped', async () => {
  const dc = client();
  const file = path.join(srcdir, 'edit.cl');
  try {
    const { stopped } = await start(dc, file, 2, 2, [7]);
    assert.equal(stopped.reason, 'breakpoint');
    const terminated = dc.waitForEvent('terminated');
    await dc.terminateRequest();
    await terminated;
    assert.doesNotMatch(dc.stdout, /out:/);
  } finally {
    await dc.stop();
  }
});
