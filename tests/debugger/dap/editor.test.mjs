// editor.test.mjs - `lockstep dap` used as an editor uses it, on dap_tile.cl
// (host_run: 8 work-items in work-groups of 4, in[i] = i): function
// breakpoints, the values of a work-group that shares local memory across a
// barrier (an array, a vector, a struct holding a vector), setting a field,
// stepping into and out of an inlined helper, and the errors bad requests
// get. Every expected value follows from the kernel's source:
//   tile[lid] = in[gid * 8]  ->  group 0: {0, 8, 16, 24}, group 1: {32, 40, 48, 56}
//   out[gid] = (r.a + 1) * 3 + tile[0] + tile[3], r.a = lid unless set.
// Tests only drive the adapter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { client, hostProgram, itemOf, launch, launchOf, srcdir, tidOf, vars } from './common.mjs';

const hostRun = hostProgram('host_run');
const kernel = path.join(srcdir, 'dap_tile.cl');

// host_run: 8 work-items in work-groups of 4; returns the capabilities.
async function launchTile(dc) {
  return (await launch(dc, hostRun, [kernel, '8', '4'])).body;
}

async function failure(promise) {
  try {
    await promise;
  } catch (e) {
    return e.message;
  }
  assert.fail('the request succeeded');
}

test('function breakpoints stop at a kernel entry and in an inlined helper', async () => {
  const dc = client();
  try {
    const caps = await launchTile(dc);
    assert.equal(caps.supportsFunctionBreakpoints, true);
    const set = await dc.customRequest('setFunctionBreakpoints', {
      breakpoints: [
        { name: 'helper', hitCondition: '2' },
        { name: 'nosuch' },
        { name: '1bad' },
        { name: 'k', condition: 'get_global_id(0) == 6' },
      ],
    });
    const [helper, nosuch, bad, entry] = set.body.breakpoints;
    assert.equal(set.body.breakpoints.length, 4);
    assert.equal(new Set(set.body.breakpoints.map((b) => b.id)).size, 4);
    for (const b of set.body.breakpoints) assert.equal(b.verified, false);
    assert.match(bad.message, /not a function name/);
    assert.match(nosuch.message, /nosuch/);

    let stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    let s = (await stopped).body;
    // the kernel's entry, for the first work-item whose global id is 6:
    // work-item 6 of launch 1, at the kernel's first statement (line 14)
    assert.equal(s.reason, 'breakpoint');
    assert.equal(s.threadId, tidOf(1, 6));
    assert.deepEqual(s.hitBreakpointIds, [entry.id]);
    let frames = (await dc.stackTraceRequest({ threadId: s.threadId })).body.stackFrames;
    assert.equal(frames.length, 1);
    assert.equal(frames[0].line, 14);
    // the launch bound both names it has, at the lines they stop at
    const bound = Object.fromEntries(dc.bpEvents.map((b) => [b.id, b]));
    assert.equal(bound[entry.id].verified, true);
    assert.equal(bound[entry.id].line, 14);
    assert.equal(bound[entry.id].source.path, kernel);
    assert.equal(bound[helper.id].verified, true);
    assert.equal(bound[helper.id].line, 9);
    assert.equal(bound[nosuch.id], undefined);

    // one stop per warp, the focused work-group's first: helper's first
    // stop is work-items 4-7's (at the focus, 6), its second (hit condition
    // 2) work-items 0-3's, shown at the lowest
    stopped = dc.waitForEvent('stopped');
    await dc.continueRequest({ threadId: s.threadId });
    s = (await stopped).body;
    assert.equal(s.reason, 'breakpoint');
    assert.equal(s.threadId, tidOf(1, 0));
    assert.deepEqual(s.hitBreakpointIds, [helper.id]);
    frames = (await dc.stackTraceRequest({ threadId: s.threadId })).body.stackFrames;
    assert.deepEqual(frames.map((f) => [f.name, f.line]), [['helper (inlined)', 9], ['k', 23]]);
    const scopes = (await dc.scopesRequest({ frameId: frames[0].id })).body.scopes;
    assert.equal((await vars(dc, scopes[2].variablesReference)).x.value, '0');

    const none = await dc.customRequest('setFunctionBreakpoints', { breakpoints: [] });
    assert.deepEqual(none.body.breakpoints, []);
    const terminated = dc.waitForEvent('terminated');
    await dc.continueRequest({ threadId: s.threadId });
    await terminated;
    assert.equal(dc.stdout, 'out: 27 30 33 36 91 94 97 100\n');
  } finally {
    await dc.stop();
  }
});

test('local memory after a barrier, a vector and a struct; bad requests fail', async () => {
  const dc = client();
  try {
    await launchTile(dc);
    await dc.setBreakpointsRequest({ source: { path: kernel }, breakpoints: [{ line: 23, condition: 'gid == 5' }] });
    let stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    let s = (await stopped).body;
    assert.equal(s.reason, 'breakpoint');
    const t6 = s.threadId;
    assert.equal(t6, tidOf(1, 5)); // work-item 5 of the first launch
    // the stopped work-group: work-items 4..7, named after their kernel and launch
    const threads = (await dc.threadsRequest()).body.threads;
    assert.deepEqual(threads.map((t) => itemOf(t.id)), [4, 5, 6, 7]);
    assert.deepEqual(new Set(threads.map((t) => launchOf(t.id))), new Set([1]));
    assert.equal(threads[1].name, 'k #1: work-item (5,0,0) local (1,0,0)');

    let frames = (await dc.stackTraceRequest({ threadId: t6 })).body.stackFrames;
    assert.equal(frames.length, 1);
    assert.equal(frames[0].line, 23);
    const scopes = (await dc.scopesRequest({ frameId: frames[0].id })).body.scopes;
    assert.deepEqual(scopes.map((x) => x.name), ['Private', 'Local', 'Global arguments', 'Work-item ids']);
    const local = await vars(dc, scopes[1].variablesReference);
    assert.equal(local.tile.value, '{32, 40, 48, 56}');
    assert.equal(local.tile.type, 'int [4]');
    assert.equal(local.tile.indexedVariables, 4);
    const tile = await vars(dc, local.tile.variablesReference);
    assert.deepEqual(Object.keys(tile), ['[0]', '[1]', '[2]', '[3]']);
    assert.equal(tile['[3]'].value, '56');
    const priv = await vars(dc, scopes[0].variablesReference);
    assert.equal(priv.gid.value, '5');
    assert.equal(priv.lid.value, '1');
    assert.equal(priv.v.value, '{32, 40, 48, 56}');
    assert.equal(priv.v.type, 'int4');
    assert.equal(priv.r.value, '{a = 1, b = 2.5, v = {64, 80, 96, 112}}');
    assert.equal(priv.r.type, 'rec');
    assert.equal(priv.r.namedVariables, 3);
    const r = await vars(dc, priv.r.variablesReference);
    assert.deepEqual(Object.keys(r), ['a', 'b', 'v']);
    assert.equal(r.b.value, '2.5');
    assert.equal(r.b.type, 'float');
    const rv = await vars(dc, r.v.variablesReference);
    assert.deepEqual(Object.values(rv).map((x) => x.value), ['64', '80', '96', '112']);
    assert.equal(rv.w.evaluateName, '((r).v).w');
    const ids = await vars(dc, scopes[3].variablesReference);
    assert.equal(ids['global id'].value, '(5,0,0)');
    assert.equal(ids['group id'].value, '(1,0,0)');

    const fid = frames[0].id;
    let ev = await dc.evaluateRequest({ expression: 'tile[lid]', frameId: fid, context: 'hover' });
    assert.equal(ev.body.result, '40');
    ev = await dc.evaluateRequest({ expression: 'v.wzyx', frameId: fid, context: 'watch' });
    assert.equal(ev.body.result, '{56, 48, 40, 32}');
    ev = await dc.evaluateRequest({ expression: 'r.v.x + in[gid * 8 + 1]', frameId: fid, context: 'repl' });
    assert.equal(ev.body.result, String(64 + 41));

    // bad requests: each fails and says why
    assert.match(await failure(dc.scopesRequest({ frameId: fid + 1 })), /no such stack frame/);
    assert.match(await failure(dc.evaluateRequest({ expression: 'gid', frameId: fid + 1 })), /no such stack frame/);
    assert.match(await failure(dc.scopesRequest({ frameId: 64 * 1000 + 1 })), /no such stack frame/);
    assert.match(await failure(dc.variablesRequest({ variablesReference: 99999 })), /unknown variablesReference/);
    assert.match(await failure(dc.evaluateRequest({ expression: 'nosuch + 1', frameId: fid })), /No symbol "nosuch"/);
    assert.match(await failure(dc.evaluateRequest({ expression: 'gid +', frameId: fid })), /syntax error/);
    // text longer than the engine's command line is refused, never cut short into another
    // expression; a long one that fits is evaluated whole
    const sum = (n) => '0' + '+1'.repeat(n);
    for (const expression of ['-exec print ' + sum(4500), sum(4500)])
      assert.match(await failure(dc.evaluateRequest({ expression, frameId: fid, context: 'repl' })), /too long/);
    ev = await dc.evaluateRequest({ expression: sum(1000), frameId: fid, context: 'repl' });
    assert.equal(ev.body.result, '1000');
    // its answer may be longer than 8 KiB (each tab is two bytes in the record) and comes whole
    ev = await dc.evaluateRequest({ expression: '1' + '\t'.repeat(4090) + '+ 2', frameId: fid, context: 'repl' });
    assert.equal(ev.body.result, '3');
    assert.match(
      await failure(dc.setVariableRequest({ variablesReference: scopes[0].variablesReference, name: 'nosuch', value: '1' })),
      /No symbol "nosuch"/,
    );
    assert.match(
      await failure(dc.setVariableRequest({ variablesReference: priv.r.variablesReference, name: 'zz', value: '1' })),
      /no field 'zz'/,
    );
    // a hover or a watch never changes the program; the console may
    assert.match(await failure(dc.evaluateRequest({ expression: 'gid = 9', frameId: fid, context: 'hover' })), /assignment/);
    assert.match(await failure(dc.evaluateRequest({ expression: 'lid = 0', frameId: fid, context: 'watch' })), /assignment/);
    ev = await dc.evaluateRequest({ expression: 'gid == 5', frameId: fid, context: 'watch' });
    assert.equal(ev.body.result, '1');
    ev = await dc.evaluateRequest({ expression: 'r.b = 1.5f * 2', frameId: fid, context: 'repl' });
    assert.equal(ev.body.result, '3');
    ev = await dc.evaluateRequest({ expression: 'gid', frameId: fid, context: 'hover' });
    assert.equal(ev.body.result, '5');
    assert.match(await failure(dc.stackTraceRequest({ threadId: 999 })), /no such thread/);
    assert.match(await failure(dc.nextRequest({ threadId: 999 })), /no such thread/);
    assert.match(await failure(dc.stackTraceRequest({ threadId: tidOf(2, 5) })), /no such thread/);
    assert.match(await failure(dc.stackTraceRequest({ threadId: tidOf(1, 999) })), /no such thread/);

    // r.a = 3 makes helper return (3 + 1) * 3 = 12
    const setA = await dc.setVariableRequest({ variablesReference: priv.r.variablesReference, name: 'a', value: '3' });
    assert.equal(setA.body.value, '3');
    stopped = dc.waitForEvent('stopped');
    await dc.stepInRequest({ threadId: t6 });
    s = (await stopped).body;
    assert.equal(s.reason, 'step');
    frames = (await dc.stackTraceRequest({ threadId: t6 })).body.stackFrames;
    assert.deepEqual(frames.map((f) => [f.name, f.line]), [['helper (inlined)', 9], ['k', 23]]);
    const hs = (await dc.scopesRequest({ frameId: frames[0].id })).body.scopes;
    assert.equal(hs[2].name, 'Arguments');
    assert.equal((await vars(dc, hs[2].variablesReference)).x.value, '3');
    stopped = dc.waitForEvent('stopped');
    await dc.stepOutRequest({ threadId: t6 });
    await stopped;
    frames = (await dc.stackTraceRequest({ threadId: t6 })).body.stackFrames;
    assert.deepEqual(frames.map((f) => [f.name, f.line]), [['k', 24]]);
    ev = await dc.evaluateRequest({ expression: 'h', frameId: frames[0].id, context: 'watch' });
    assert.equal(ev.body.result, '12');

    const terminated = dc.waitForEvent('terminated');
    await dc.continueRequest({ threadId: t6 });
    await terminated;
    // out[5] = 12 + 32 + 56
    assert.equal(dc.stdout, 'out: 27 30 33 36 91 100 97 100\n');
    // nothing is stopped any more
    assert.match(await failure(dc.nextRequest({ threadId: t6 })), /not running/);
  } finally {
    await dc.stop();
  }
});
