// eof.test.mjs - the adapter ends with its client: when the editor goes
// away without `disconnect` (the adapter's stdin reaches end of file),
// `lockstep dap` ends the host program it started and exits, whatever state
// the session is in: no program yet, a program in host code, a kernel
// stopped at a breakpoint, a kernel running.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { client, hostProgram, launch, srcdir } from './common.mjs';

// Only detects a hang: the adapter is meant to exit within a second.
const EXIT_BOUND_MS = 10000;

// The pids of the processes whose parent is `ppid`.
function childrenOf(ppid) {
  const kids = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; /* it ended meanwhile */
    }
    // pid (comm) state ppid ...: comm may hold spaces and parentheses
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[1]) === ppid) kids.push(Number(name));
  }
  return kids;
}

// Whether process `pid` exists (a zombie counts: nobody reaped it).
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code !== 'ESRCH';
  }
}

// The one host program the adapter started.
function hostPid(dc) {
  const kids = childrenOf(dc._adapterProcess.pid);
  assert.equal(kids.length, 1, `the adapter has one child: ${kids}`);
  return kids[0];
}

// Closes the adapter's stdin and waits for it to exit; resolves to its
// exit code, or rejects once EXIT_BOUND_MS passed.
function closeClient(dc) {
  const proc = dc._adapterProcess;
  return new Promise((resolve, reject) => {
    if (proc.exitCode !== null) return resolve(proc.exitCode);
    const timer = setTimeout(() => reject(new Error('the adapter did not exit after its stdin closed')), EXIT_BOUND_MS);
    proc.on('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
    proc.stdin.end();
  });
}

// What a failed test leaves behind goes.
function cleanup(dc, pids) {
  for (const pid of pids)
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  dc.stopAdapter();
}

// Runs `body` (which starts the adapter and returns the host's pid, or
// none), closes the adapter's stdin and checks that the adapter exited and
// the host program is gone.
async function endsWithClient(body) {
  const dc = client();
  const pids = [];
  try {
    const pid = await body(dc);
    if (pid) pids.push(pid);
    assert.equal(await closeClient(dc), 0);
    if (pid) assert.equal(alive(pid), false, `host program ${pid} is gone`);
  } finally {
    cleanup(dc, pids);
  }
}

test('stdin closed with no program launched', async () => {
  await endsWithClient(async (dc) => {
    await dc.start();
    await dc.initializeRequest({ adapterID: 'lockstep', linesStartAt1: true });
    return 0;
  });
});

test('stdin closed while the program runs host code', async () => {
  await endsWithClient(async (dc) => {
    // a program that never reaches a kernel: it stays in host code
    await launch(dc, 'sleep', ['600']);
    await dc.configurationDoneRequest();
    return hostPid(dc);
  });
});

test('stdin closed while a kernel is stopped at a breakpoint', async () => {
  await endsWithClient(async (dc) => {
    await launch(dc, hostProgram('host_queues'), ['1']);
    const pid = hostPid(dc);
    await dc.setBreakpointsRequest({ source: { path: 'count' }, breakpoints: [{ line: 6 }] });
    const stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    assert.equal((await stopped).body.reason, 'breakpoint');
    return pid;
  });
});

test('stdin closed while a kernel runs', async () => {
  await endsWithClient(async (dc) => {
    // spin.cl spins for ever: in[0] is 0
    await launch(dc, hostProgram('host_run'), [path.join(srcdir, 'spin.cl'), '1', '1']);
    const pid = hostPid(dc);
    const spinning = new Promise((resolve) =>
      dc.on('output', () => {
        if (dc.stdout.includes('spinning')) resolve();
      }),
    );
    await dc.configurationDoneRequest();
    await spinning;
    return pid;
  });
});
