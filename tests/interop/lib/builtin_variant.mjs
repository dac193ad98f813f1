// A copy of a model that tfjs-tflite runs in TFLite's builtin kernels only.
//
// tflite::Interpreter applies its default XNNPACK delegate lazily and drops
// it when the graph has tensors whose shapes are known only at run time. So:
// the shape operand of one RESHAPE (a constant) becomes a model input, fed
// the very values it held; the reshape's output turns dynamic, XNNPACK steps
// aside, and the model computes exactly what it did, in the builtin kernels.
// The flatbuffer is patched in place (lib/fb_patch.mjs): subgraph 0's inputs
// become the model's own, then the shape; the tensor's buffer index is set
// to 0 (no data); signatures are dropped.
import { patchSubgraph0 } from './fb_patch.mjs';

/**
 * `fb` = parseModel(bytes). Returns { bytes, shapeInput: { tensor_index, name,
 * dtype, shape, values: Uint8Array } } or null when no RESHAPE takes a
 * constant shape operand.
 */
export function builtinVariant(bytes, fb) {
  const sg = fb.subgraphs[0];
  const op = sg.operators.find((o) => o.name === 'RESHAPE' && o.inputs.length > 1 && o.inputs[1] >= 0 && fb.isConstant(0, o.inputs[1]));
  if (!op) return null;
  const ti = op.inputs[1];
  const t = sg.tensors[ti];
  if (t.dtype !== 'int32') return null;
  let patched = true;
  const out = patchSubgraph0(bytes, {
    inputs: [...sg.inputs, ti],
    edit: ({ dv, field, deref, sg0 }) => {
      const tensor = deref(deref(sg0 + field(sg0, 0)) + 4 + 4 * ti); // SubGraph.tensors[ti]
      const bufField = field(tensor, 2); // Tensor.buffer
      if (bufField) dv.setUint32(tensor + bufField, 0, true);
      else patched = false;
    },
  });
  if (!patched) return null;
  return {
    bytes: out,
    shapeInput: { tensor_index: ti, name: t.name ?? '', dtype: 'int32', shape: t.shape, values: fb.constantData(0, ti).slice() },
  };
}
