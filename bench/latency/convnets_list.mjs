// The corpus conv nets quant_eval has data for: every model of
// bench/quant_eval/models.mjs that is not skipped and whose float model has
// a CONV_2D or DEPTHWISE_CONV_2D op. Prints a --filter regex of their ids.
//   node bench/latency/convnets_list.mjs CORPUS
import fs from 'node:fs';
import path from 'node:path';
import { MODELS } from '../quant_eval/models.mjs';
import { parseModel } from '../../tests/interop/lib/tflite.mjs';

const corpus = process.argv[2];
const ids = [];
for (const m of MODELS) {
  if (m.skip) continue;
  const file = path.join(corpus, m.model);
  if (!fs.existsSync(file)) continue;
  const fb = parseModel(new Uint8Array(fs.readFileSync(file)));
  const conv = fb.subgraphs.some((sg) => sg.operators.some((op) => op.name === 'CONV_2D' || op.name === 'DEPTHWISE_CONV_2D'));
  if (conv) ids.push(m.id.replace(/[.]/g, '\\.'));
}
console.log(`^(${ids.join('|')})$`);
