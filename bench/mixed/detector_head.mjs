// A raw detector's head: the CONV_2D ops whose outputs reach a model output
// only through RESHAPE and CONCATENATION, and those ops. Reads `qforge
// inspect --ops` on stdin; prints their output tensor names (the
// --float-op selectors), one a line.
import fs from 'node:fs';

const ops = [];
const producer = new Map();
for (const line of fs.readFileSync(0, 'utf8').split('\n')) {
  const m = /^\s*(\d+): (\S+)\s+(.*) -> (.*)$/.exec(line);
  if (!m) continue;
  const op = { index: Number(m[1]), type: m[2], inputs: m[3].split(', '), outputs: m[4].split(', ') };
  ops.push(op);
  for (const t of op.outputs) producer.set(t, op);
}
const read = new Set(ops.flatMap((o) => o.inputs));
const head = new Set();
const walk = (tensor) => {
  const op = producer.get(tensor);
  if (!op) return;
  if (op.type === 'RESHAPE' || op.type === 'CONCATENATION') {
    head.add(op);
    op.inputs.forEach(walk);
  } else if (op.type === 'CONV_2D') head.add(op);
};
[...producer.keys()].filter((t) => !read.has(t)).forEach(walk);
for (const op of [...head].sort((a, b) => a.index - b.index)) process.stdout.write(`${op.outputs[0]}\n`);
