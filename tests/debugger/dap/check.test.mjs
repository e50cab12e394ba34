// check.test.mjs - `lockstep dap` with the checkers of LOCKSTEP_CHECK: a
// checker's report stops the kernel like a device exception (a `stopped`
// event with reason "exception" and the report as its text, exceptionInfo
// answering with it), the variables can be read there, and continue goes
// on to the program's end. The host program is host_run with chk_host.cl.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { client, hostProgram, itemOf, launch, srcdir } from './common.mjs';

const hostRun = hostProgram('host_run');

test('a data race stops as an exception with the report as its text', async () => {
  const dc = client();
  try {
    const file = path.join(srcdir, 'chk_host.cl');
    await launch(dc, hostRun, [file, '8', '4'], { check: 'races' });
    const stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    const ev = (await stopped).body;
    assert.equal(ev.reason, 'exception');
    assert.equal(ev.description, 'Paused on a data race');
    assert.match(
      ev.text,
      /^data race in kernel 'k' on global memory, buffer 'out' \(argument 0\) offset 0: write at .*:6 by work-item \(0,0,0\)/,
    );
    assert.equal(itemOf(ev.threadId), 0);
    const top = (await dc.stackTraceRequest({ threadId: ev.threadId })).body.stackFrames[0];
    assert.equal(top.line, 6);
    assert.equal(top.source.path, file);
    const v = await dc.evaluateRequest({ expression: 'v', frameId: top.id, context: 'hover' });
    assert.equal(v.body.result, '1');
    const info = await dc.customRequest('exceptionInfo', { threadId: ev.threadId });
    assert.equal(info.body.exceptionId, 'data race');
    assert.equal(info.body.description, ev.text);
    const exited = dc.waitForEvent('exited');
    await dc.continueRequest({ threadId: ev.threadId });
    await exited;
    assert.match(dc.stdout, /out: 7 9 17 25 33 41 49 57/);
  } finally {
    await dc.stop();
  }
});

test("a launch's 'check' must name checkers", async () => {
  const dc = client();
  try {
    await dc.start();
    await dc.initializeRequest({ adapterID: 'lockstep', linesStartAt1: true });
    await assert.rejects(
      dc.launchRequest({ program: hostRun, args: [], check: 'races,bogus' }),
      /unknown checker "bogus"/,
    );
  } finally {
    await dc.stop();
  }
});
