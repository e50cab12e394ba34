// fresh.test.mjs - `lockstep dap` on a thread whose work-group has not
// started: host_grid (a 5x4 launch at offset (1,1) in 3x3 work-groups over a
// 7x6 grid, kernel grid(__global int *o, int w) with w = 7) stops at entry;
// a thread of the second work-group shows its kernel arguments with the
// values the launch gives them, and a value set there is the one it starts
// with. Tests only drive the adapter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { client, hostProgram, itemOf, launch, launchOf, tidOf, topScope, vars } from './common.mjs';

const hostGrid = hostProgram('host_grid');

async function args(dc, threadId) {
  const { top, ref } = await topScope(dc, threadId, 'Global arguments');
  return { top, ref, v: await vars(dc, ref) };
}

test('a thread of a work-group not started shows its arguments', async () => {
  const dc = client();
  try {
    await launch(dc, hostGrid, [], { stopOnEntry: true });
    let stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    const entry = (await stopped).body;
    assert.equal(entry.reason, 'entry');
    assert.equal(itemOf(entry.threadId), 0);
    const first = await args(dc, entry.threadId);
    const item = (i) => tidOf(launchOf(entry.threadId), i);
    assert.equal(first.v.w.value, '7');
    assert.match(first.v.o.value, /^\(__global int \*\) 0x[0-9a-f]+$/);
    assert.notEqual(first.v.o.value, '(__global int *) 0x0');

    // work-item (4,1) is item (4-1) + (1-1)*5 = 3, in work-group (1,0),
    // which has not started
    const fresh = await args(dc, item(3));
    assert.equal(fresh.v.w.value, '7');
    assert.equal(fresh.v.o.value, first.v.o.value);
    assert.equal(fresh.v.w.type, 'int');
    let ev = await dc.evaluateRequest({ expression: 'w * 2 + 1', frameId: fresh.top.id, context: 'hover' });
    assert.equal(ev.body.result, '15');
    ev = await dc.evaluateRequest({ expression: 'o[1 * w + 4]', frameId: fresh.top.id, context: 'watch' });
    assert.equal(ev.body.result, '-1');
    // what it is set to is what it starts with: w = 0 makes it write o[0 * 0 + 4]
    const set = await dc.setVariableRequest({ variablesReference: fresh.ref, name: 'w', value: '0' });
    assert.equal(set.body.value, '0');
    assert.equal((await args(dc, item(3))).v.w.value, '0');
    stopped = dc.waitForEvent('stopped');
    await dc.nextRequest({ threadId: item(3) });
    const step = (await stopped).body;
    assert.equal(step.threadId, item(3));
    const after = await args(dc, item(3));
    assert.equal(after.top.line, 2);
    assert.equal(after.v.w.value, '0');
    assert.equal(after.v.o.value, first.v.o.value);
    // its neighbour (5,1), item 4, started with it and kept w = 7
    assert.equal((await args(dc, item(4))).v.w.value, '7');

    const terminated = dc.waitForEvent('terminated');
    await dc.continueRequest({ threadId: item(3) });
    await terminated;
    // rows y = 0..5 of x * 10 + y over x = 1..5, y = 1..4; (4,1) wrote
    // row 0 instead of row 1
    const rows = [
      [-1, -1, -1, -1, 41, -1, -1],
      [-1, 11, 21, 31, -1, 51, -1],
      [-1, 12, 22, 32, 42, 52, -1],
      [-1, 13, 23, 33, 43, 53, -1],
      [-1, 14, 24, 34, 44, 54, -1],
      [-1, -1, -1, -1, -1, -1, -1],
    ];
    const want = rows.map((r) => r.map((v) => ' ' + String(v).padStart(3)).join('') + '\n').join('');
    assert.equal(dc.stdout, want);
  } finally {
    await dc.stop();
  }
});
