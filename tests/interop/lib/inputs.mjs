// Deterministic model inputs from a seed (no Math.random, no Node crypto):
// the same seed and the same input list give the same bytes on every machine.
//
//   float32/float16/float64  uniform in [-1, 1)
//   int8 uint8 int16 uint16 int32 uint32 int64 uint64   integers uniform in [0, 10)
//                            (small and non-negative so that index inputs such as
//                            GATHER ids or EMBEDDING_LOOKUP rows stay in range);
//                            [0, high) when the spec has `high` (the harness sets it
//                            for inputs feeding GATHER/GATHER_ND/EMBEDDING_LOOKUP/
//                            SCATTER_ND indices directly: tflite.mjs indexBounds())
//   bool                     0 or 1 with probability 1/2
// Inputs are drawn one after the other from ONE stream, in input order.

/** mulberry32: 32-bit state, period 2^32; plenty for test inputs. */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296; // [0, 1)
  };
}

// float32 -> IEEE half bits (round to nearest even), for float16 inputs.
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
function toHalf(x) {
  f32[0] = x;
  const b = u32[0];
  const sign = (b >>> 16) & 0x8000;
  const exp = ((b >>> 23) & 0xff) - 127 + 15;
  let mant = b & 0x7fffff;
  if (exp <= 0) {
    if (exp < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - exp;
    let h = mant >>> shift;
    const rem = mant & ((1 << shift) - 1), half = 1 << (shift - 1);
    if (rem > half || (rem === half && (h & 1))) h++;
    return sign | h;
  }
  let h = sign | (exp << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && (h & 1))) h++;
  return h;
}

export const GENERATED_DTYPES = ['float32', 'float16', 'float64', 'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64', 'bool'];

/**
 * One input's raw little-endian bytes for dtype/shape, drawn from `rand`.
 * Throws for dtypes it cannot make (string, resource, complex...).
 */
export function generateTensor(rand, dtype, shape, high = 10) {
  const n = shape.reduce((a, b) => a * b, 1);
  const int = () => Math.floor(rand() * high);
  let arr;
  switch (dtype) {
    case 'float32': arr = Float32Array.from({ length: n }, () => rand() * 2 - 1); break;
    case 'float64': arr = Float64Array.from({ length: n }, () => rand() * 2 - 1); break;
    case 'float16': arr = Uint16Array.from({ length: n }, () => toHalf(rand() * 2 - 1)); break;
    case 'int8': arr = Int8Array.from({ length: n }, int); break;
    case 'uint8': arr = Uint8Array.from({ length: n }, int); break;
    case 'int16': arr = Int16Array.from({ length: n }, int); break;
    case 'uint16': arr = Uint16Array.from({ length: n }, int); break;
    case 'int32': arr = Int32Array.from({ length: n }, int); break;
    case 'uint32': arr = Uint32Array.from({ length: n }, int); break;
    case 'int64': arr = BigInt64Array.from({ length: n }, () => BigInt(int())); break;
    case 'uint64': arr = BigUint64Array.from({ length: n }, () => BigInt(int())); break;
    case 'bool': arr = Uint8Array.from({ length: n }, () => (rand() < 0.5 ? 0 : 1)); break;
    default: throw Object.assign(new Error(`cannot generate a ${dtype} input`), { kind: `${dtype} input` });
  }
  return new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength);
}

/** Inputs for a model's input list [{ dtype, shape, high? }] -> [{ dtype, shape, bytes }]. */
export function generateInputs(seed, specs) {
  const rand = mulberry32(seed);
  return specs.map((s) => ({ dtype: s.dtype, shape: s.shape, bytes: generateTensor(rand, s.dtype, s.shape, Math.min(10, s.high ?? 10)) }));
}
