// NumPy .npy files <-> { dtype, shape, bytes } (bytes: raw little-endian, C order).
// Reads format versions 1.x/2.x/3.x, writes 1.0 (2.0 when the header needs it).
import fs from 'node:fs';

// dtype name -> [descr that NumPy writes, item size]
const DESCR = {
  bool: ['|b1', 1], int8: ['|i1', 1], uint8: ['|u1', 1],
  int16: ['<i2', 2], uint16: ['<u2', 2], float16: ['<f2', 2],
  int32: ['<i4', 4], uint32: ['<u4', 4], float32: ['<f4', 4],
  int64: ['<i8', 8], uint64: ['<u8', 8], float64: ['<f8', 8],
};

export const itemSize = (dtype) => {
  const d = DESCR[dtype];
  if (!d) throw new Error(`dtype ${dtype} has no .npy mapping`);
  return d[1];
};

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // "\x93NUMPY"

function dtypeFromDescr(descr) {
  const m = /^([<>|=]?)([biuf])(\d)$/.exec(descr);
  if (!m) throw new Error(`.npy dtype ${JSON.stringify(descr)} is not supported`);
  const [, order, kind, n] = m;
  const size = Number(n);
  if (order === '>' && size > 1) throw new Error(`big-endian .npy dtype ${descr} is not supported`);
  const name = kind === 'b' ? 'bool' : `${{ i: 'int', u: 'uint', f: 'float' }[kind]}${size * 8}`;
  if (!DESCR[name] || DESCR[name][1] !== size) throw new Error(`.npy dtype ${descr} is not supported`);
  return name;
}

/** Parses .npy bytes -> { dtype, shape, bytes }. */
export function decodeNpy(buf) {
  const u8 = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  if (u8.byteLength < 10 || MAGIC.some((b, i) => u8[i] !== b)) throw new Error('not a .npy file');
  const dv = new DataView(u8.buffer, u8.byteOffset, u8.byteLength);
  const major = u8[6];
  let hlen, hstart;
  if (major === 1) { hlen = dv.getUint16(8, true); hstart = 10; }
  else if (major === 2 || major === 3) { hlen = dv.getUint32(8, true); hstart = 12; }
  else throw new Error(`.npy format version ${major} is not supported`);
  const header = Buffer.from(u8.subarray(hstart, hstart + hlen)).toString(major === 3 ? 'utf8' : 'latin1');
  const descr = /['"]descr['"]\s*:\s*['"]([^'"]+)['"]/.exec(header);
  const fortran = /['"]fortran_order['"]\s*:\s*(True|False)/.exec(header);
  const shapeM = /['"]shape['"]\s*:\s*\(([^)]*)\)/.exec(header);
  if (!descr || !fortran || !shapeM) throw new Error(`cannot parse .npy header ${JSON.stringify(header)}`);
  if (fortran[1] === 'True') throw new Error('Fortran-order .npy files are not supported');
  const shape = shapeM[1].split(',').map((s) => s.trim()).filter(Boolean).map((s) => {
    const v = Number(s.replace(/L$/, ''));
    if (!Number.isSafeInteger(v) || v < 0) throw new Error(`bad .npy shape entry ${s}`);
    return v;
  });
  const dtype = dtypeFromDescr(descr[1]);
  const n = shape.reduce((a, b) => a * b, 1) * itemSize(dtype);
  const start = hstart + hlen;
  if (u8.byteLength < start + n) throw new Error(`.npy data is truncated (${u8.byteLength - start} of ${n} bytes)`);
  return { dtype, shape, bytes: u8.slice(start, start + n) };
}

/** Serialises { dtype, shape, bytes } as .npy bytes. */
export function encodeNpy(dtype, shape, bytes) {
  const [descr, size] = DESCR[dtype] ?? [];
  if (!descr) throw new Error(`cannot write dtype ${dtype} to .npy`);
  const need = shape.reduce((a, b) => a * b, 1) * size;
  if (bytes.byteLength !== need) throw new Error(`${bytes.byteLength} bytes do not fill ${dtype}${JSON.stringify(shape)} (${need} bytes)`);
  const dims = shape.length === 1 ? `${shape[0]},` : shape.join(', ');
  let dict = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${dims}), }`;
  let pre = 10;
  if (dict.length + 1 + pre > 65535) pre = 12;
  dict += ' '.repeat((64 - ((pre + dict.length + 1) % 64)) % 64) + '\n';
  const out = new Uint8Array(pre + dict.length + bytes.byteLength);
  out.set(MAGIC, 0);
  out[6] = pre === 10 ? 1 : 2;
  out[7] = 0;
  const dv = new DataView(out.buffer);
  if (pre === 10) dv.setUint16(8, dict.length, true); else dv.setUint32(8, dict.length, true);
  out.set(Buffer.from(dict, 'latin1'), pre);
  out.set(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), pre + dict.length);
  return out;
}

export const readNpy = (file) => decodeNpy(fs.readFileSync(file));
export const writeNpy = (file, dtype, shape, bytes) => fs.writeFileSync(file, encodeNpy(dtype, shape, bytes));
