// launches.test.mjs - `lockstep dap` with several launches stopped at once
// (debugger/README.md, "Several launches"). host_queues 3: three host
// threads each launch kernel `count` on a queue of their own, with seed 1, 2
// and 3, while the main thread runs kernel `other`; the program checks its
// own results and exits 0 when each is right. Its source is embedded, so the
// program is named after its first kernel: the breakpoint is `count:6`.
// Each launch stops there: its own `stopped` event, its threads listed with
// the others' grouped by kernel and launch, its `seed` read through its own
// frames, and it is continued by its own thread. Tests only drive the
// adapter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { client, hostProgram, launch, launchOf, topScope, vars } from './common.mjs';

const N = 3;

test('launches stopped at once: a stopped event and threads each, seeds read, each continued by its thread', async () => {
  const dc = client();
  try {
    await launch(dc, hostProgram('host_queues'), [String(N)]);
    const stops = [];
    const allStopped = new Promise((resolve, reject) => {
      dc.on('stopped', (e) => {
        stops.push(e.body);
        if (stops.length === N) resolve();
      });
      // as long as the client waits for any one event: only so a run that
      // never gets there fails rather than hangs
      setTimeout(() => reject(new Error(`${stops.length} of ${N} stops reported`)), dc.defaultTimeout).unref();
    });
    await dc.setBreakpointsRequest({ source: { path: 'count' }, breakpoints: [{ line: 6 }] });
    await dc.configurationDoneRequest();
    await allStopped;

    // one stop per launch, each naming a work-item of its own launch
    const firstStops = stops.slice();
    const launches = firstStops.map((s) => launchOf(s.threadId));
    assert.equal(new Set(launches).size, N, `stops of launches ${launches}`);
    for (const s of firstStops) {
      assert.equal(s.reason, 'breakpoint');
      assert.equal(s.allThreadsStopped, false);
      assert.ok(s.threadId < 2 ** 53);
    }

    // the threads of every stopped launch, by kernel name then launch
    const threads = (await dc.threadsRequest()).body.threads;
    const order = threads.map((t) => launchOf(t.id));
    assert.deepEqual([...new Set(order)], [...launches].sort((a, b) => a - b));
    assert.deepEqual(order, [...order].sort((a, b) => a - b), 'grouped by launch');
    for (const t of threads) assert.match(t.name, new RegExp(`^count #${launchOf(t.id)}: (group \\(\\d+,0,0\\): )?work-item \\(`));
    for (const s of firstStops) assert.ok(threads.some((t) => t.id === s.threadId), `thread ${s.threadId} listed`);

    // each launch's seed through its own frames: 1, 2 and 3
    const seeds = new Map();
    const frames = new Map();
    for (const s of firstStops) {
      const { top, ref } = await topScope(dc, s.threadId, 'Global arguments');
      assert.equal(top.line, 6);
      seeds.set(launchOf(s.threadId), (await vars(dc, ref)).seed.value);
      frames.set(s.threadId, top.id);
    }
    assert.deepEqual([...seeds.values()].sort(), ['1', '2', '3']);
    // frame ids stay valid while their launch is stopped, whichever was read last
    for (const s of firstStops) {
      const ev = await dc.evaluateRequest({ expression: 'seed', frameId: frames.get(s.threadId), context: 'watch' });
      assert.equal(ev.body.result, seeds.get(launchOf(s.threadId)));
    }

    // a step runs its launch only: it stops again, the others stay stopped
    const first = firstStops[0];
    const stepped = dc.waitForEvent('stopped');
    await dc.nextRequest({ threadId: first.threadId });
    const step = (await stepped).body;
    assert.equal(step.reason, 'step');
    assert.equal(launchOf(step.threadId), launchOf(first.threadId));
    const top = (await dc.stackTraceRequest({ threadId: step.threadId })).body.stackFrames[0];
    assert.equal(top.line, 7);
    const after = (await dc.threadsRequest()).body.threads;
    assert.deepEqual(new Set(after.map((t) => launchOf(t.id))), new Set(launches));

    // the console's `kernel N` picks the launch an evaluate without a frame reads
    for (const n of launches) {
      const sw = await dc.evaluateRequest({ expression: `-exec kernel ${n}`, context: 'repl' });
      assert.match(sw.body.result, new RegExp(`^\\[Switching to kernel ${n} \\(count, queue \\d+\\)\\]`));
      const ev = await dc.evaluateRequest({ expression: 'seed', context: 'repl' });
      assert.equal(ev.body.result, seeds.get(n));
    }

    await dc.setBreakpointsRequest({ source: { path: 'count' }, breakpoints: [] });
    const exited = dc.waitForEvent('exited');
    for (const s of firstStops) {
      const r = await dc.continueRequest({ threadId: s.threadId });
      assert.equal(r.body.allThreadsContinued, false);
    }
    assert.equal((await exited).body.exitCode, 0);
    for (let q = 1; q <= N; q++) assert.match(dc.stdout, new RegExp(`queue ${q}: ok \\(counter 256\\)`));
    assert.match(dc.stdout, /other: ok/);
    // only the program's own lines: what the engine says goes to the console
    assert.deepEqual(dc.stdout.split('\n').filter((l) => l && !/^(queue \d|other): ok/.test(l)), []);
    assert.equal(stops.length, N + 1, 'each stop reported once');
  } finally {
    await dc.stop();
  }
});
