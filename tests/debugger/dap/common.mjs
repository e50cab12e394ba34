// common.mjs - what the DAP tests share: where the build and the kernels
// are, a DebugClient on `lockstep dap`, a launch of a host program up to the
// `initialized` event, and reading a frame's variables. It holds no tests
// (node --test runs the *.test.mjs files). LOCKSTEP_BUILD names the build
// tree.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pkg from '@vscode/debugadapter-testsupport';
export const { DebugClient } = pkg;

const here = path.dirname(fileURLToPath(import.meta.url));
export const srcdir = path.resolve(here, '..');
const build = process.env.LOCKSTEP_BUILD;
if (!build) throw new Error('set LOCKSTEP_BUILD to the build folder');
export const lockstep = path.join(build, 'lockstep');

// The path of a host program built from tests/debugger.
export function hostProgram(name) {
  return path.join(build, 'tests', 'debugger', name);
}

// A client of `lockstep dap`: dc.stdout gathers what the host program
// prints, dc.bpEvents the breakpoints the adapter's `breakpoint` events
// carry.
export function client() {
  const dc = new DebugClient(lockstep, 'dap', 'lockstep', { env: process.env });
  dc.defaultTimeout = 60000;
  dc.stdout = '';
  dc.bpEvents = [];
  dc.on('output', (e) => {
    if (e.body.category === 'stdout') dc.stdout += e.body.output;
  });
  dc.on('breakpoint', (e) => dc.bpEvents.push(e.body.breakpoint));
  return dc;
}

// Starts the adapter and launches `program` with `args` (run in
// tests/debugger, with the launch arguments `extra` besides), up to the
// `initialized` event; returns the initialize response. Breakpoints and
// configurationDone are the caller's.
export async function launch(dc, program, args, extra = {}) {
  await dc.start();
  const initialized = dc.waitForEvent('initialized');
  const init = await dc.initializeRequest({ adapterID: 'lockstep', linesStartAt1: true });
  await dc.launchRequest({ program, args, cwd: srcdir, ...extra });
  await initialized;
  return init;
}

// Thread ids name a launch (its number, as `info kernels` shows it) and a
// work-item of it (its linear index): launch * 2^32 + item + 1.
export const tidOf = (launch, item) => launch * 2 ** 32 + item + 1;
export const launchOf = (tid) => Math.floor((tid - 1) / 2 ** 32);
export const itemOf = (tid) => (tid - 1) % 2 ** 32;

// The variables under `ref`, by name.
export async function vars(dc, ref) {
  const r = await dc.variablesRequest({ variablesReference: ref });
  return Object.fromEntries(r.body.variables.map((v) => [v.name, v]));
}

// The top frame of a thread and the reference of its scope `name`.
export async function topScope(dc, threadId, name) {
  const top = (await dc.stackTraceRequest({ threadId })).body.stackFrames[0];
  const scopes = (await dc.scopesRequest({ frameId: top.id })).body.scopes;
  return { top, ref: scopes.find((s) => s.name === name).variablesReference };
}
