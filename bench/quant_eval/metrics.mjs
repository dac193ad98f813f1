// Accuracy of a quantized model's outputs against the float model's, both
// from the same runtime on the same evaluation inputs, and the (de)quantizing
// of integer model I/O for the official twins.
import { floatValues } from '../../tests/interop/lib/float_compare.mjs';

const INT_VIEWS = { int8: Int8Array, uint8: Uint8Array, int16: Int16Array, int32: Int32Array };
const RANGES = { int8: [-128, 127], uint8: [0, 255], int16: [-32768, 32767] };

/** An output's values as doubles: floats as they are, integers dequantized with `q` ({scale, zero_point}) when given. */
export function outputValues(dtype, bytes, q) {
  const f = floatValues(dtype, bytes);
  if (f) return f;
  const C = INT_VIEWS[dtype];
  if (!C) throw new Error(`output dtype ${dtype} cannot be compared`);
  const ints = new C(bytes.slice().buffer);
  const scale = q?.scale?.[0] ?? 1, zp = q?.zero_point?.[0] ?? 0;
  return Float64Array.from(ints, (v) => (v - zp) * scale);
}

/** Float32 input bytes -> bytes of dtype `dtype` quantized with q (per tensor), round half away from zero as TFLite's QUANTIZE. */
export function quantizeInput(bytes, dtype, q) {
  const x = new Float32Array(bytes.slice().buffer);
  if (dtype === 'float32') return new Uint8Array(x.buffer);
  const C = INT_VIEWS[dtype], range = RANGES[dtype];
  if (!C || !range || !q?.scale?.length) throw new Error(`cannot quantize an input to ${dtype} without scale`);
  const scale = q.scale[0], zp = q.zero_point?.[0] ?? 0;
  const out = new C(x.length);
  for (let i = 0; i < x.length; i++) {
    const v = Math.round(Math.abs(x[i]) / scale) * Math.sign(x[i]) + zp;
    out[i] = Math.min(range[1], Math.max(range[0], v));
  }
  return new Uint8Array(out.buffer);
}

export const db = (num, den) => (den === 0 ? Infinity : num === 0 ? -Infinity : 10 * Math.log10(num / den));

/**
 * SQNR over all outputs and samples: 10·log10(Σ ref² / Σ (ref − q)²).
 * refs, tests: [[Float64Array per output] per sample].
 * Returns { db, per_output: [db...], nonfinite, sample_sig: [Σ ref² per
 * sample], sample_err: [Σ (ref − q)² per sample] } (Infinity when
 * identical). Two models measured against the same references differ by
 * 10·log10 of their error sums, so sample_err is all a paired bootstrap
 * over the samples needs (pairedDbInterval); the two per-sample sums also
 * let runs on disjoint samples be pooled (merge_folds.mjs).
 */
export function sqnr(refs, tests) {
  let sig = 0, err = 0, nonfinite = 0;
  const nOut = refs[0]?.length ?? 0;
  const perSig = new Array(nOut).fill(0), perErr = new Array(nOut).fill(0);
  const sampleSig = new Array(refs.length).fill(0), sampleErr = new Array(refs.length).fill(0);
  refs.forEach((outs, s) => outs.forEach((r, j) => {
    const t = tests[s][j];
    if (t.length !== r.length) throw new Error(`output ${j} sample ${s}: ${t.length} values, the float model gives ${r.length}`);
    for (let i = 0; i < r.length; i++) {
      const d = r[i] - t[i];
      if (!Number.isFinite(d)) { nonfinite++; continue; }
      sig += r[i] * r[i]; err += d * d;
      perSig[j] += r[i] * r[i]; perErr[j] += d * d;
      sampleSig[s] += r[i] * r[i]; sampleErr[s] += d * d;
    }
  }));
  return { db: db(sig, err), per_output: perSig.map((v, j) => db(v, perErr[j])), nonfinite, sample_sig: sampleSig, sample_err: sampleErr };
}

/**
 * The 95% interval of the SQNR difference a − b (dB) between two models
 * measured on the same samples against the same references, by a paired
 * bootstrap: the samples are drawn with replacement `rounds` times (a fixed
 * seed: the interval is reproducible) and 10·log10(Σ errB / Σ errA) taken
 * over each draw. errA, errB: sample_err of each. Returns [lo, hi], or null
 * when the errors are missing or of different lengths.
 */
export function pairedDbInterval(errA, errB, rounds = 10000) {
  if (!errA?.length || errA.length !== errB?.length) return null;
  let seed = 1;
  const next = () => {  // mulberry32
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const n = errA.length, d = [];
  for (let r = 0; r < rounds; r++) {
    let a = 0, b = 0;
    for (let i = 0; i < n; i++) {
      const k = Math.floor(next() * n);
      a += errA[k]; b += errB[k];
    }
    d.push(db(b, a));
  }
  d.sort((x, y) => x - y);
  return [d[Math.floor(0.025 * (rounds - 1))], d[Math.ceil(0.975 * (rounds - 1))]];
}

const argmax = (a) => {
  let k = 0;
  for (let i = 1; i < a.length; i++) if (a[i] > a[k]) k = i;
  return k;
};

/** Top-1 agreement of output 0: { agree, of }. */
export function top1(refs, tests) {
  let agree = 0;
  refs.forEach((outs, s) => { if (argmax(outs[0]) === argmax(tests[s][0])) agree++; });
  return { agree, of: refs.length };
}

/** Classes the float model picks on the evaluation samples (to show the set is not degenerate). */
export function distinctTop1(refs) {
  return new Set(refs.map((outs) => argmax(outs[0]))).size;
}

export const fmtDb = (v) => (v === null || v === undefined ? '—' : v === Infinity ? 'inf' : v === -Infinity ? '-inf' : v.toFixed(1));
