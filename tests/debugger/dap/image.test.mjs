// image.test.mjs - `lockstep dap` on a kernel with image and sampler
// arguments (tests/debugger/host_image.cl, run by host_image): the Arguments
// scope shows each image's type, size and format and each sampler's fields,
// an image expands into its size and format and a sampler into its fields,
// and `evaluate` of img(x, y) gives a texel that expands into its channels.
// Tests only drive the adapter; they must not reach into the engine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { client, hostProgram, launch, srcdir, vars } from './common.mjs';

const hostImage = hostProgram('host_image');
const kernel = path.join(srcdir, 'host_image.cl');

test('images and samplers in the Arguments scope and in evaluate', async () => {
  const dc = client();
  try {
    await launch(dc, hostImage, [kernel]);
    await dc.setBreakpointsRequest({ source: { path: kernel }, breakpoints: [{ line: 11 }] });
    const stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    const tid = (await stopped).body.threadId;
    const top = (await dc.stackTraceRequest({ threadId: tid })).body.stackFrames[0];
    assert.equal(top.line, 11);
    const scopes = (await dc.scopesRequest({ frameId: top.id })).body.scopes;
    const argScope = scopes.find((s) => s.name === 'Global arguments');
    const args = await vars(dc, argScope.variablesReference);
    assert.deepEqual(Object.keys(args), ['src', 'dst', 'smp', 'vol', 'layers', 'lut', 'out']);

    // an image: its summary, its type as whatis spells it, and its members
    assert.equal(args.src.value, '(read_only image2d_t) 4 x 3, CL_BGRA CL_UNORM_INT8');
    assert.equal(args.src.type, 'read_only image2d_t');
    assert.equal(args.dst.value, '(write_only image2d_t) 4 x 3, CL_RGBA CL_HALF_FLOAT');
    assert.equal(args.layers.value, '(read_only image2d_array_t) 4 x 3 x 3 layers, CL_R CL_SIGNED_INT32');
    assert.equal(args.lut.value, '(read_only image1d_buffer_t) 4, CL_RGBA CL_FLOAT');
    assert.ok(args.src.variablesReference > 0, 'an image can be expanded');
    const src = await vars(dc, args.src.variablesReference);
    assert.deepEqual(Object.keys(src), ['width', 'height', 'channel_order', 'channel_data_type']);
    assert.equal(src.width.value, '4');
    assert.equal(src.height.value, '3');
    assert.equal(src.channel_order.value, 'CL_BGRA');
    assert.equal(src.channel_data_type.value, 'CL_UNORM_INT8');
    assert.equal(src.width.evaluateName, '(src).width');
    const vol = await vars(dc, args.vol.variablesReference);
    assert.deepEqual(Object.keys(vol), ['width', 'height', 'depth', 'channel_order', 'channel_data_type']);
    assert.equal(vol.depth.value, '2');
    const layers = await vars(dc, args.layers.variablesReference);
    assert.equal(layers.array_size.value, '3');

    // a sampler: its fields, by name
    assert.equal(args.smp.type, 'sampler_t');
    assert.equal(
      args.smp.value,
      '{normalized_coords = CLK_NORMALIZED_COORDS_FALSE, addressing_mode = CLK_ADDRESS_CLAMP, ' +
        'filter_mode = CLK_FILTER_NEAREST}',
    );
    const smp = await vars(dc, args.smp.variablesReference);
    assert.equal(smp.addressing_mode.value, 'CLK_ADDRESS_CLAMP');
    assert.equal(smp.filter_mode.value, 'CLK_FILTER_NEAREST');

    // evaluate img(x, y): a texel in the image's channel order, expandable
    let ev = await dc.evaluateRequest({ expression: 'src(3, 2)', frameId: top.id, context: 'watch' });
    assert.equal(ev.body.result, '{b = 1, g = 0.400000006, r = 1, a = 0.501960814}');
    assert.equal(ev.body.type, 'float4');
    const texel = await vars(dc, ev.body.variablesReference);
    assert.deepEqual(Object.keys(texel), ['b', 'g', 'r', 'a']);
    assert.equal(texel.g.value, '0.400000006');
    ev = await dc.evaluateRequest({ expression: 'vol(1, 2, 1).a', frameId: top.id, context: 'hover' });
    assert.equal(ev.body.result, '1121');
    ev = await dc.evaluateRequest({ expression: 'layers(1, 2, 2)', frameId: top.id, context: 'repl' });
    assert.equal(ev.body.result, '{r = -221}');
    await assert.rejects(
      dc.evaluateRequest({ expression: 'src(4, 0)', frameId: top.id, context: 'watch' }),
      /src\(4, 0\) is outside the image \(4 x 3\): x must be 0 to 3/,
    );

    await dc.setBreakpointsRequest({ source: { path: kernel }, breakpoints: [] });
    const exited = dc.waitForEvent('exited');
    await dc.continueRequest({ threadId: tid });
    assert.equal((await exited).body.exitCode, 0);
    assert.match(dc.stdout, /dst\(0, 0\): 3800 0000 0000 3404/);
  } finally {
    await dc.stop();
  }
});
