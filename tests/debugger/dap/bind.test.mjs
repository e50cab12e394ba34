// bind.test.mjs - `lockstep dap` moves an editor's breakpoint to the line
// it binds to, as the engine does: a line with no code to the next line
// with code, a line that continues a statement to the statement; and
// leaves unverified, with gdb's words, one past the end of the file or one
// whose condition names no variable. The host program is host_run on
// host_bind.cl over 2^20 work-items (in[i] = i, out[gid] = 2 * (in[8 gid]
// + in[8 gid + 1])). Tests only drive the adapter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { client, hostProgram, launch, srcdir } from './common.mjs';

const hostRun = hostProgram('host_run');
const kernel = path.join(srcdir, 'host_bind.cl');

test('breakpoints move to the line they bind to or are refused, and stop there', async () => {
  const dc = client();
  try {
    await launch(dc, hostRun, [kernel, '1048576', '256']);
    const set = await dc.setBreakpointsRequest({
      source: { path: kernel },
      breakpoints: [
        { line: 9, condition: 'gid == 70000' }, // blank: binds to line 10
        { line: 11 }, // continues the statement of line 10
        { line: 12, condition: 'gid == 70000' }, // the call line of twice()
        { line: 999 },
        { line: 13, condition: 'zz > 0' },
      ],
    });
    const [blank, cont, call, past, unknown] = set.body.breakpoints;
    assert.equal(set.body.breakpoints.length, 5);
    assert.deepEqual([blank.verified, blank.line], [true, 10]);
    assert.equal(blank.message, 'line 9 has no code');
    assert.deepEqual([cont.verified, cont.line], [true, 10]);
    assert.equal(cont.message, 'line 11 is part of the statement at line 10');
    assert.deepEqual([call.verified, call.line], [true, 12]);
    assert.equal(call.message, undefined);
    assert.deepEqual([past.verified, past.line], [false, 999]);
    assert.equal(past.message, 'No line 999 in file "host_bind.cl".');
    assert.equal(unknown.verified, false);
    assert.equal(unknown.message, 'No symbol "zz" in current context.');
    // the one without a condition (line 11, bound at 10) would stop first:
    // the editor drops it
    await dc.setBreakpointsRequest({
      source: { path: kernel },
      breakpoints: [
        { line: 9, condition: 'gid == 70000' },
        { line: 12, condition: 'gid == 70000' },
      ],
    });

    let stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    let s = (await stopped).body;
    assert.equal(s.reason, 'breakpoint');
    let frames = (await dc.stackTraceRequest({ threadId: s.threadId })).body.stackFrames;
    assert.equal(frames[0].line, 10);
    assert.equal(frames.length, 1);
    // the call line stops at the call, in the kernel's frame, before twice()
    stopped = dc.waitForEvent('stopped');
    await dc.continueRequest({ threadId: s.threadId });
    s = (await stopped).body;
    frames = (await dc.stackTraceRequest({ threadId: s.threadId })).body.stackFrames;
    assert.deepEqual(
      frames.map((f) => [f.name, f.line]),
      [['k', 12]],
    );
    const sv = await dc.evaluateRequest({ expression: 's', frameId: frames[0].id, context: 'watch' });
    assert.equal(sv.body.result, '1120001');

    await dc.setBreakpointsRequest({ source: { path: kernel }, breakpoints: [] });
    const exited = dc.waitForEvent('exited');
    await dc.continueRequest({ threadId: s.threadId });
    await exited;
    assert.match(dc.stdout, /out: 2 34 66 98 \.\.\. sum 17592171364352/);
  } finally {
    await dc.stop();
  }
});
