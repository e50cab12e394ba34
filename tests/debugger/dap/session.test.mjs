// session.test.mjs - end-to-end tests of `lockstep dap` through a real DAP
// client (@vscode/debugadapter-testsupport's DebugClient): a real host
// program (tests/debugger/host_prog.c) runs its kernels from host_kernel.cl
// under the adapter. Run by CTest with LOCKSTEP_BUILD naming the build tree.
// Tests only drive the adapter; they must not reach into the engine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { client, hostProgram, launch, launchOf, srcdir, tidOf, vars } from './common.mjs';

const hostProg = hostProgram('host_prog');
const kernel = path.join(srcdir, 'host_kernel.cl');

async function start(dc, launchArgs, lines) {
  const init = await launch(dc, hostProg, [kernel], launchArgs);
  const bps = lines.length
    ? await dc.setBreakpointsRequest({ source: { path: kernel }, breakpoints: lines.map((l) => (typeof l === 'number' ? { line: l } : l)) })
    : null;
  const stopped = dc.waitForEvent('stopped');
  await dc.configurationDoneRequest();
  return { init, bps, stopped: await stopped };
}

test('initialize reports honest capabilities', async () => {
  const dc = client();
  await dc.start();
  try {
    const r = await dc.initializeRequest({ adapterID: 'lockstep' });
    const c = r.body;
    for (const k of ['supportsConfigurationDoneRequest', 'supportsConditionalBreakpoints', 'supportsHitConditionalBreakpoints',
      'supportsSetVariable', 'supportsEvaluateForHovers', 'supportsReadMemoryRequest', 'supportsWriteMemoryRequest', 'supportsTerminateRequest'])
      assert.equal(c[k], true, k);
    assert.notEqual(c.supportsSteppingGranularity, true);
  } finally {
    await dc.stop();
  }
});

test('breakpoint, scopes, stepping, threads, setVariable, memory, exit', async () => {
  const dc = client();
  try {
    // a breakpoint on the blank line 12 binds to the first line of count (13), not to scale
    const { bps, stopped } = await start(dc, {}, [8, 12]);
    assert.equal(bps.body.breakpoints[0].verified, true);
    assert.equal(bps.body.breakpoints[0].line, 8);
    assert.equal(bps.body.breakpoints[1].line, 13);
    assert.equal(stopped.body.reason, 'breakpoint');
    const tid = stopped.body.threadId;

    // the stop is in scale() at line 8 of the kernel file, work-item 1
    const st = await dc.stackTraceRequest({ threadId: tid });
    const f0 = st.body.stackFrames[0];
    assert.equal(f0.line, 8);
    assert.equal(f0.source.path, kernel);
    assert.match(f0.name, /scale/);

    // every scope
    const scopes = (await dc.scopesRequest({ frameId: f0.id })).body.scopes;
    assert.deepEqual(scopes.map((s) => s.name), ['Private', 'Local', 'Global arguments', 'Work-item ids']);
    const [priv, local, args, ids] = await Promise.all(scopes.map((s) => vars(dc, s.variablesReference)));
    assert.equal(priv.gid.value, '1');
    assert.equal(priv.acc.value, '6');
    assert.deepEqual(Object.keys(local), []);
    assert.equal(args.factor.value, '2');
    assert.equal(args.n.value, '3');
    assert.ok(args.data.variablesReference > 0, 'a pointer can be expanded');
    assert.equal(ids['global id'].value, '(1,0,0)');
    assert.equal(ids['local id'].value, '(1,0,0)');
    assert.equal(ids['global size'].value, '(8,1,1)');

    // the pointer's target and the elements after it
    const data = await vars(dc, args.data.variablesReference);
    assert.equal(data['*data'].value, '0');
    assert.equal(data['[1]'].value, '1');
    assert.equal(data['[7]'].value, '7');

    // memory behind the pointer: data[1] == 1.0f
    const mem = await dc.customRequest('readMemory', { memoryReference: args.data.memoryReference, offset: 4, count: 4 });
    assert.equal(Buffer.from(mem.body.data, 'base64').readFloatLE(0), 1);

    // evaluate (hover and console)
    const ev = await dc.evaluateRequest({ expression: 'acc * 2', frameId: f0.id, context: 'hover' });
    assert.equal(ev.body.result, '12');
    await assert.rejects(dc.evaluateRequest({ expression: 'nosuch', frameId: f0.id, context: 'watch' }), /nosuch/);

    // threads: the focused group's work-items plus one per other group in progress
    const th = (await dc.threadsRequest()).body.threads;
    assert.equal(th.length, 4);
    assert.match(th[1].name, /work-item \(1,0,0\) local \(1,0,0\)/);

    // step over the negation
    let s = dc.waitForEvent('stopped');
    await dc.nextRequest({ threadId: tid });
    assert.equal((await s).body.reason, 'step');
    let top = (await dc.stackTraceRequest({ threadId: tid })).body.stackFrames[0];
    assert.equal(top.line, 10);
    let p = await vars(dc, (await dc.scopesRequest({ frameId: top.id })).body.scopes[0].variablesReference);
    assert.equal(p.acc.value, '-6');

    // set a variable: the host prints data[1] = 100
    const sv = await dc.setVariableRequest({ variablesReference: (await dc.scopesRequest({ frameId: top.id })).body.scopes[0].variablesReference, name: 'acc', value: '100' });
    assert.equal(sv.body.value, '100');

    // switch work-item: work-item 5, of group 1; step it in
    const t5 = tidOf(launchOf(tid), 5);
    const st5 = await dc.stackTraceRequest({ threadId: t5 });
    assert.equal(st5.body.stackFrames[0].line, 1);
    s = dc.waitForEvent('stopped');
    await dc.stepInRequest({ threadId: t5 });
    const ev5 = await s;
    assert.equal(ev5.body.threadId, t5);
    top = (await dc.stackTraceRequest({ threadId: t5 })).body.stackFrames[0];
    assert.equal(top.line, 2);
    s = dc.waitForEvent('stopped');
    await dc.nextRequest({ threadId: t5 });
    await s;
    p = await vars(dc, (await dc.scopesRequest({ frameId: (await dc.stackTraceRequest({ threadId: t5 })).body.stackFrames[0].id })).body.scopes[0].variablesReference);
    assert.equal(p.gid.value, '5');

    // drop the breakpoints in scale, keep count's; continue into count
    await dc.setBreakpointsRequest({ source: { path: kernel }, breakpoints: [{ line: 12 }] });
    s = dc.waitForEvent('stopped');
    await dc.continueRequest({ threadId: t5 });
    const inCount = await s;
    assert.equal(inCount.body.reason, 'breakpoint');
    top = (await dc.stackTraceRequest({ threadId: inCount.body.threadId })).body.stackFrames[0];
    assert.equal(top.line, 13);
    assert.match(top.name, /count/);

    // run to the end
    await dc.setBreakpointsRequest({ source: { path: kernel }, breakpoints: [] });
    const exited = dc.waitForEvent('exited');
    const terminated = dc.waitForEvent('terminated');
    await dc.continueRequest({ threadId: inCount.body.threadId });
    assert.equal((await exited).body.exitCode, 0);
    await terminated;
    assert.match(dc.stdout, /scale: 0 100 12 -18 24 -30 36 -42/);
    assert.match(dc.stdout, /counter = 16, distinct tickets = yes/);
  } finally {
    await dc.stop();
  }
});

test('conditional and hit-count breakpoints, stop on entry', async () => {
  const dc = client();
  try {
    const { stopped } = await start(dc, { stopOnEntry: true }, [{ line: 8, condition: 'gid == 5' }]);
    assert.equal(stopped.body.reason, 'entry');
    let s = dc.waitForEvent('stopped');
    await dc.continueRequest({ threadId: stopped.body.threadId });
    let e = await s;
    assert.equal(e.body.reason, 'breakpoint');
    const p = await vars(dc, (await dc.scopesRequest({ frameId: (await dc.stackTraceRequest({ threadId: e.body.threadId })).body.stackFrames[0].id })).body.scopes[0].variablesReference);
    assert.equal(p.gid.value, '5');
    // hit count: the third stop at line 15 of count, one per warp (the
    // work-groups of 4 are one warp each): work-items 8-11, shown at 8
    await dc.setBreakpointsRequest({ source: { path: kernel }, breakpoints: [{ line: 15, hitCondition: '3' }] });
    s = dc.waitForEvent('stopped');
    await dc.continueRequest({ threadId: e.body.threadId });
    e = await s;
    const ids = (await dc.scopesRequest({ frameId: (await dc.stackTraceRequest({ threadId: e.body.threadId })).body.stackFrames[0].id })).body.scopes[3];
    assert.equal((await vars(dc, ids.variablesReference))['global id'].value, '(8,0,0)');
    // disconnecting (dc.stop) ends the stopped host program and the adapter
  } finally {
    await dc.stop();
  }
});
