// args.test.mjs - `lockstep dap` shows every kernel argument
// (tests/debugger/byval.cl run by host_args on 2^20 work-items): the
// Arguments scope lists structs passed by value with the host program's
// values and expands them into their fields (a vector, a nested struct, an
// array), for a work-item stopped at a breakpoint and for one whose
// work-group has not started; a field set in either is the value that
// work-item runs with; a condition uses the struct's fields; with two
// launches stopped at once, each shows its own struct. Tests only drive the
// adapter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { client, hostProgram, itemOf, launch, launchOf, srcdir, tidOf, topScope, vars } from './common.mjs';

const hostArgs = hostProgram('host_args');
const kernel = path.join(srcdir, 'byval.cl');

async function argsOf(dc, threadId) {
  const { top, ref } = await topScope(dc, threadId, 'Global arguments');
  return { top, v: await vars(dc, ref) };
}

// The fields of p (params_t {n = 5 or 9, scale = 2.5, off = {1, 2, 3, 4}}),
// expanded as an editor expands them.
async function checkP(dc, p, n) {
  assert.equal(p.value, `{n = ${n}, scale = 2.5, off = {1, 2, 3, 4}}`);
  assert.equal(p.type, 'params_t');
  assert.ok(p.variablesReference > 0, 'a struct argument can be expanded');
  const f = await vars(dc, p.variablesReference);
  assert.deepEqual(Object.keys(f), ['n', 'scale', 'off']);
  assert.equal(f.n.value, String(n));
  assert.equal(f.n.type, 'int');
  assert.equal(f.scale.value, '2.5');
  assert.equal(f.off.type, 'float4');
  assert.equal(f.off.evaluateName, '(p).off');
  const off = await vars(dc, f.off.variablesReference);
  assert.deepEqual(Object.fromEntries(Object.entries(off).map(([k, e]) => [k, e.value])), { x: '1', y: '2', z: '3', w: '4' });
}

// q (nest_t): a nested struct and arrays inside it.
async function checkQ(dc, q) {
  assert.equal(q.type, 'nest_t');
  const f = await vars(dc, q.variablesReference);
  assert.deepEqual(Object.keys(f), ['id', 'in', 'taps', 'tag']);
  assert.equal(f.id.value, '-3');
  const inner = await vars(dc, f.in.variablesReference);
  assert.equal(inner.n.value, '6');
  assert.equal(inner.scale.value, '0.25');
  const off = await vars(dc, inner.off.variablesReference);
  assert.equal(off.w.value, '40');
  assert.equal(off.w.evaluateName, '(((q).in).off).w');
  const taps = await vars(dc, f.taps.variablesReference);
  assert.deepEqual(Object.values(taps).map((e) => e.value), ['100', '200', '300']);
  assert.equal(f.tag.value, '"ABC"');
}

test('struct arguments in the Arguments scope, stopped and not started', async () => {
  const dc = client();
  try {
    await launch(dc, hostArgs, [kernel]);
    await dc.setBreakpointsRequest({
      source: { path: kernel },
      breakpoints: [{ line: 19, condition: 'p.n > 3 && i == 5 && q.in.off.w == 40' }],
    });
    const stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    const ev = (await stopped).body;
    assert.equal(ev.reason, 'breakpoint');
    assert.equal(itemOf(ev.threadId), 5);

    const { top, v } = await argsOf(dc, ev.threadId);
    assert.equal(top.line, 19);
    assert.deepEqual(Object.keys(v), ['a', 'p', 'tab', 'tmp', 'iv', 's', 'q', 'u', 'big']);
    await checkP(dc, v.p, 5);
    await checkQ(dc, v.q);
    assert.match(v.a.value, /^\(__global float \*\) 0x[0-9a-f]+$/);
    assert.match(v.tab.value, /^\(__constant int \*\) 0x[0-9a-f]+$/);
    assert.match(v.tmp.value, /^\(__local float \*\) 0x[0-9a-f]+$/);
    assert.equal(v.iv.value, '{7, 8, 9, 10}');
    assert.equal(v.s.value, '0.5');
    assert.equal(v.big.value, '-40000');
    const tab = await vars(dc, v.tab.variablesReference);
    assert.equal(tab['*tab'].value, '10');
    let e = await dc.evaluateRequest({ expression: 'p.off.y * q.in.n + tab[3]', frameId: top.id, context: 'watch' });
    assert.equal(e.body.result, '25');
    // the Private scope lists what print finds: i, l and v (declared on this line)
    const priv = await vars(dc, (await dc.scopesRequest({ frameId: top.id })).body.scopes[0].variablesReference);
    assert.deepEqual(Object.keys(priv), ['i', 'l', 'v']);
    assert.equal(priv.i.value, '5');

    // work-item 1048575: its work-group (4095) has not started
    const fresh = await argsOf(dc, tidOf(launchOf(ev.threadId), 1048575));
    await checkP(dc, fresh.v.p, 5);
    await checkQ(dc, fresh.v.q);
    e = await dc.evaluateRequest({ expression: 'q.taps[2] - p.n', frameId: fresh.top.id, context: 'hover' });
    assert.equal(e.body.result, '295');
    // what is set there is what it starts with: two more elements differ
    // (a[1048575] and a[1048574], which reads its tmp)
    const fs = await dc.setVariableRequest({ variablesReference: fresh.v.p.variablesReference, name: 'n', value: '7' });
    assert.equal(fs.body.value, '7');

    // setting a field of work-item 5's copy: its loop runs 7 times, which
    // a[4] (reading its tmp) and a[5] (its own p.n) show
    const sv = await dc.setVariableRequest({ variablesReference: v.p.variablesReference, name: 'n', value: '7' });
    assert.equal(sv.body.value, '7');
    e = await dc.evaluateRequest({ expression: 'p', frameId: top.id, context: 'watch' });
    assert.equal(e.body.result, '{n = 7, scale = 2.5, off = {1, 2, 3, 4}}');
    await dc.setBreakpointsRequest({ source: { path: kernel }, breakpoints: [] });
    const exited = dc.waitForEvent('exited');
    await dc.continueRequest({ threadId: ev.threadId });
    await exited;
    // a[4] = tmp[5] + 5 + 200 - 40000 with tmp[5] = 25.5 + 1300 + 49.5;
    // a[5] = tmp[6] + 7 + 200 - 40000 with tmp[6] = 29 + 900 + 49.5
    assert.match(dc.stdout, /launch 1 \(p\.n = 5\): a\[4\] = -38420, a\[5\] = -38814\.5, 4 wrong/);
  } finally {
    await dc.stop();
  }
});

test('two launches stopped at once each show their own struct argument', async () => {
  const dc = client();
  try {
    await launch(dc, hostArgs, [kernel, '2']);
    const stops = [];
    const both = new Promise((resolve, reject) => {
      dc.on('stopped', (e) => {
        stops.push(e.body);
        if (stops.length === 2) resolve();
      });
      setTimeout(() => reject(new Error(`${stops.length} of 2 stops reported`)), dc.defaultTimeout).unref();
    });
    await dc.setBreakpointsRequest({ source: { path: kernel }, breakpoints: [{ line: 19, condition: 'i == 5' }] });
    await dc.configurationDoneRequest();
    await both;
    const launches = stops.map((s) => launchOf(s.threadId));
    assert.equal(new Set(launches).size, 2);
    // p.n is 5 in one launch and 9 in the other, read in turn through each
    const ns = [];
    for (const s of stops) {
      const { top, v } = await argsOf(dc, s.threadId);
      ns.push(Number((await vars(dc, v.p.variablesReference)).n.value));
      await checkQ(dc, v.q);
      const e = await dc.evaluateRequest({ expression: 'p.n', frameId: top.id, context: 'watch' });
      assert.equal(e.body.result, String(ns[ns.length - 1]));
    }
    assert.deepEqual([...ns].sort(), [5, 9]);
    // and again after the other launch was read last
    const { v } = await argsOf(dc, stops[0].threadId);
    await checkP(dc, v.p, ns[0]);
    await dc.setBreakpointsRequest({ source: { path: kernel }, breakpoints: [] });
    const exited = dc.waitForEvent('exited');
    for (const s of stops) await dc.continueRequest({ threadId: s.threadId });
    assert.equal((await exited).body.exitCode, 0);
    assert.match(dc.stdout, /launch 1 \(p\.n = 5\): .*, 0 wrong/);
    assert.match(dc.stdout, /launch 2 \(p\.n = 9\): .*, 0 wrong/);
  } finally {
    await dc.stop();
  }
});
