// warps.test.mjs - `lockstep dap` on a real-sized launch: host_run with
// edit.cl (a 4-iteration loop) over 2^20 work-items in work-groups of 256,
// 8 warps of 32. Each stop is one warp's: the `stopped` event names the
// warp's focused work-item, `continue` goes to the next warp (never to
// another lane of the same one), work-item 0's second iteration comes after
// 8 continues, the thread list stays a work-group's size, and with
// `set scheduler-locking on` (sent as a REPL command) continue follows the
// focused work-item alone. Tests only drive the adapter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { client, hostProgram, itemOf, launch, srcdir, topScope, tidOf } from './common.mjs';

const hostRun = hostProgram('host_run');
const file = path.join(srcdir, 'edit.cl');
const N = 1 << 20;

async function value(dc, threadId, expr) {
  const { top } = await topScope(dc, threadId, 'Private');
  return (await dc.evaluateRequest({ expression: expr, frameId: top.id, context: 'watch' })).body.result;
}

async function cont(dc, threadId) {
  const s = dc.waitForEvent('stopped');
  await dc.continueRequest({ threadId });
  return (await s).body;
}

async function start(dc) {
  await launch(dc, hostRun, [file, String(N), '256']);
  await dc.setBreakpointsRequest({ source: { path: file }, breakpoints: [{ line: 7 }] });
  const s = dc.waitForEvent('stopped');
  await dc.configurationDoneRequest();
  return (await s).body;
}

test('one stop per warp: continue goes warp by warp, the focused work-group first', async () => {
  const dc = client();
  try {
    let s = await start(dc);
    assert.equal(s.reason, 'breakpoint');
    assert.equal(s.threadId, tidOf(1, 0));
    assert.match(s.description, /work-item \(0,0,0\).* \(with 31 work-items of its warp\)$/);
    assert.equal(await value(dc, s.threadId, 'i'), '0');
    // the thread list: the focused work-group's items and one per other
    // work-group in progress, not a million
    const threads = (await dc.threadsRequest()).body.threads;
    assert.ok(threads.some((t) => t.id === s.threadId));
    assert.ok(threads.length <= 256 + 8, `${threads.length} threads`);
    const seen = [];
    for (let k = 1; k <= 8; k++) {
      s = await cont(dc, s.threadId);
      assert.equal(s.reason, 'breakpoint');
      seen.push(itemOf(s.threadId));
    }
    // warps 1..7 at their first iteration, then work-item 0's second
    assert.deepEqual(seen, [32, 64, 96, 128, 160, 192, 224, 0]);
    assert.equal(await value(dc, s.threadId, 'i'), '1');
    assert.equal(await value(dc, tidOf(1, 31), 'i'), '1');
    // the pass that brought it there stopped every warp at its second
    // iteration together: the next continue reports warp 1's
    assert.equal(await value(dc, tidOf(1, 32), 'i'), '1');
    s = await cont(dc, s.threadId);
    assert.equal(s.threadId, tidOf(1, 32));
    await dc.setBreakpointsRequest({ source: { path: file }, breakpoints: [] });
    const exited = dc.waitForEvent('exited');
    const terminated = dc.waitForEvent('terminated');
    await dc.continueRequest({ threadId: s.threadId });
    assert.equal((await exited).body.exitCode, 0);
    await terminated;
    // out[gid] = in[8 gid] + ... + in[8 gid + 3] = 32 gid + 6
    assert.match(dc.stdout, /^out: 6 38 70 102 /);
    // the sum over every work-item: 2^20 * (16 * (2^20 - 1) + 6)
    assert.match(dc.stdout, / sum 17592175558656\n/);
  } finally {
    await dc.stop();
  }
});

test('set scheduler-locking on: continue follows the focused work-item', async () => {
  const dc = client();
  try {
    let s = await start(dc);
    assert.equal(s.threadId, tidOf(1, 0));
    const { top } = await topScope(dc, s.threadId, 'Private');
    const r = await dc.evaluateRequest({ expression: '-exec set scheduler-locking on', frameId: top.id, context: 'repl' });
    assert.match(r.body.result, /only for the focused work-item/);
    for (let k = 1; k <= 3; k++) {
      s = await cont(dc, s.threadId);
      assert.equal(s.threadId, tidOf(1, 0));
      assert.equal(await value(dc, s.threadId, 'i'), String(k));
    }
    // past its last iteration, continue runs the launch to its end
    const exited = dc.waitForEvent('exited');
    await dc.continueRequest({ threadId: s.threadId });
    assert.equal((await exited).body.exitCode, 0);
    assert.match(dc.stdout, /^out: 6 38 70 102 /);
  } finally {
    await dc.stop();
  }
});
