// struct.test.mjs - `lockstep dap` through a real DAP client on a kernel with
// a struct variable and an inlined helper (tests/debugger/host_struct.cl, run
// by host_run): the stack shows the inlined callee over its call site, each
// frame's scopes hold that function's own variables, a struct expands into
// its fields, and setting a field changes the result.
// Tests only drive the adapter; they must not reach into the engine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { client, hostProgram, itemOf, launch, srcdir, vars } from './common.mjs';

const hostRun = hostProgram('host_run');
const kernel = path.join(srcdir, 'host_struct.cl');

test('inlined frames and struct variables', async () => {
  const dc = client();
  try {
    await launch(dc, hostRun, [kernel, '4', '4']);
    await dc.setBreakpointsRequest({ source: { path: kernel }, breakpoints: [{ line: 5 }] });
    let stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    const tid = (await stopped).body.threadId;

    // in twice(), inlined into k at line 11
    const frames = (await dc.stackTraceRequest({ threadId: tid })).body.stackFrames;
    assert.equal(frames.length, 2);
    assert.match(frames[0].name, /twice \(inlined\)/);
    assert.equal(frames[0].line, 5);
    assert.match(frames[1].name, /^k$/);
    assert.equal(frames[1].line, 11);
    assert.equal(frames[1].source.path, kernel);

    // the inlined frame's scopes hold twice()'s own variables: its parameter
    // v (p.y of work-item 0, in[1] = 1), and none of k's
    let scopes = (await dc.scopesRequest({ frameId: frames[0].id })).body.scopes;
    assert.deepEqual(scopes.map((s) => s.name), ['Private', 'Local', 'Arguments', 'Work-item ids']);
    let args = await vars(dc, scopes[2].variablesReference);
    assert.deepEqual(Object.keys(args), ['v']);
    assert.equal(args.v.value, '1');
    assert.equal(args.v.type, 'int');
    let priv = await vars(dc, scopes[0].variablesReference);
    assert.equal(priv.gid, undefined, "the kernel's locals are not twice()'s");
    let ev = await dc.evaluateRequest({ expression: 'v * 10', frameId: frames[0].id, context: 'hover' });
    assert.equal(ev.body.result, '10');
    // the caller's frame: k's variables and arguments
    scopes = (await dc.scopesRequest({ frameId: frames[1].id })).body.scopes;
    assert.equal(scopes[2].name, 'Global arguments');
    args = await vars(dc, scopes[2].variablesReference);
    assert.deepEqual(Object.keys(args), ['out', 'in']);
    priv = await vars(dc, scopes[0].variablesReference);
    assert.equal(priv.gid.value, '0');
    assert.equal(priv.p.value, '{x = 0, y = 1}');
    assert.equal(priv.v, undefined, "twice()'s parameter is not the kernel's");
    // types are spelled as `whatis` spells them: pointers with their address space
    assert.equal(args.out.type, '__global int *');
    assert.equal(args.in.type, '__global point *');
    assert.equal(priv.p.type, 'point');
    ev = await dc.evaluateRequest({ expression: '&p', frameId: frames[1].id, context: 'watch' });
    assert.equal(ev.body.type, 'point *');
    ev = await dc.evaluateRequest({ expression: '-exec whatis in', frameId: frames[1].id, context: 'repl' });
    assert.equal(ev.body.result.trim(), 'type = __global point *');

    // a step inside twice(): its local r = v * 2, which setVariable in the
    // inlined frame writes (and puts back, so p.x is 2 at line 12)
    stopped = dc.waitForEvent('stopped');
    await dc.stepInRequest({ threadId: tid });
    await stopped;
    const inner = (await dc.stackTraceRequest({ threadId: tid })).body.stackFrames;
    assert.equal(inner[0].line, 6);
    assert.match(inner[0].name, /twice \(inlined\)/);
    priv = await vars(dc, (await dc.scopesRequest({ frameId: inner[0].id })).body.scopes[0].variablesReference);
    assert.deepEqual(Object.keys(priv), ['r']);
    assert.equal(priv.r.value, '2');
    ev = await dc.evaluateRequest({ expression: 'r + v', frameId: inner[0].id, context: 'watch' });
    assert.equal(ev.body.result, '3');
    const innerPriv = (await dc.scopesRequest({ frameId: inner[0].id })).body.scopes[0].variablesReference;
    let set = await dc.setVariableRequest({ variablesReference: innerPriv, name: 'r', value: '7' });
    assert.equal(set.body.value, '7');
    ev = await dc.evaluateRequest({ expression: 'r', frameId: inner[0].id, context: 'watch' });
    assert.equal(ev.body.result, '7');
    set = await dc.setVariableRequest({ variablesReference: innerPriv, name: 'r', value: 'v * 2' });
    assert.equal(set.body.value, '2');

    // at line 12 the struct p expands into x and y
    await dc.setBreakpointsRequest({ source: { path: kernel }, breakpoints: [{ line: 12 }] });
    stopped = dc.waitForEvent('stopped');
    await dc.continueRequest({ threadId: tid });
    await stopped;
    const top = (await dc.stackTraceRequest({ threadId: tid })).body.stackFrames[0];
    assert.equal(top.line, 12);
    priv = await vars(dc, (await dc.scopesRequest({ frameId: top.id })).body.scopes[0].variablesReference);
    assert.equal(priv.p.value, '{x = 2, y = 1}');
    assert.ok(priv.p.variablesReference > 0, 'a struct can be expanded');
    const p = await vars(dc, priv.p.variablesReference);
    assert.deepEqual(Object.keys(p), ['x', 'y']);
    assert.equal(p.x.value, '2');
    assert.equal(p.y.value, '1');
    assert.equal(p.y.evaluateName, '(p).y');
    ev = await dc.evaluateRequest({ expression: 'p.x * 10', frameId: top.id, context: 'hover' });
    assert.equal(ev.body.result, '20');

    // set a field: out[0] = p.x + p.y becomes 2 + 40
    const sv = await dc.setVariableRequest({ variablesReference: priv.p.variablesReference, name: 'y', value: '40' });
    assert.equal(sv.body.value, '40');
    await dc.setBreakpointsRequest({ source: { path: kernel }, breakpoints: [] });
    const exited = dc.waitForEvent('exited');
    const terminated = dc.waitForEvent('terminated');
    await dc.continueRequest({ threadId: tid });
    assert.equal((await exited).body.exitCode, 0);
    await terminated;
    assert.match(dc.stdout, /out: 42 9 15 21/);
  } finally {
    await dc.stop();
  }
});

test('a device exception stops at the faulting line', async () => {
  const dc = client();
  try {
    const fault = path.join(srcdir, 'fault.cl');
    await launch(dc, hostRun, [fault, '4', '2']);
    const stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    const ev = (await stopped).body;
    assert.equal(ev.reason, 'exception');
    assert.match(ev.text, /out-of-bounds 4-byte global store/);
    assert.equal(itemOf(ev.threadId), 1); // work-item 1 stores past the end
    const top = (await dc.stackTraceRequest({ threadId: ev.threadId })).body.stackFrames[0];
    assert.equal(top.line, 5);
    assert.equal(top.source.path, fault);
    const idx = await dc.evaluateRequest({ expression: 'idx', frameId: top.id, context: 'hover' });
    assert.equal(idx.body.result, '1000000');
    const info = await dc.customRequest('exceptionInfo', { threadId: ev.threadId });
    assert.match(info.body.description, /out-of-bounds/);
    const exited = dc.waitForEvent('exited');
    await dc.continueRequest({ threadId: ev.threadId });
    await exited;
    assert.match(dc.stdout, /launch failed: status -5/);
  } finally {
    await dc.stop();
  }
});

test('a failed assert() stops like a breakpoint and the run goes on', async () => {
  const dc = client();
  try {
    const file = path.join(srcdir, 'assert.cl');
    await launch(dc, hostRun, [file, '4', '2']);
    const stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    const ev = (await stopped).body;
    assert.equal(ev.reason, 'exception');
    assert.equal(ev.text, "Assertion `x != 0' failed");
    assert.equal(ev.description, 'Paused on a failed assertion');
    assert.equal(itemOf(ev.threadId), 2); // work-item 2 has x == 0
    const top = (await dc.stackTraceRequest({ threadId: ev.threadId })).body.stackFrames[0];
    assert.equal(top.line, 6);
    assert.equal(top.source.path, file);
    const x = await dc.evaluateRequest({ expression: 'x', frameId: top.id, context: 'hover' });
    assert.equal(x.body.result, '0');
    const info = await dc.customRequest('exceptionInfo', { threadId: ev.threadId });
    assert.equal(info.body.exceptionId, 'assertion');
    const exited = dc.waitForEvent('exited');
    await dc.continueRequest({ threadId: ev.threadId });
    await exited;
    assert.match(dc.stdout, /out: -32 -16 0 16/);
  } finally {
    await dc.stop();
  }
});
