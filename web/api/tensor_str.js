// tensor_str.js — a Tensor printed as torch prints it: String(x), `${x}` and console.log(x) in Node give what
// print(x) gives in PyTorch. Restates torch/_tensor_str.py (_Formatter, _vector_str, _tensor_str_with_formatter,
// get_summarized_data, _str_intern, _add_suffixes) for plain CPU tensors with the default print options; the
// code is the same in torch 1.13 and 2.x. Checked against torch's own strings: tests/api/tensor_repr.test.js.
//   tensorRepr(values, shape, dtype) // values: the flat typed array, shape: [int], dtype: 'float32' | 'int8' | ...
//   pythonFloat(v)                   // repr(float) in Python: '1.5', '1e-05', 'inf' (a 0-dim tensor in an f-string)

const PRECISION = 4;     // torch.set_printoptions defaults
const THRESHOLD = 1000;  // more elements than this are summarised
const EDGEITEMS = 3;     // elements kept at each end of a summarised dimension
const LINEWIDTH = 80;
const DEFAULT_DTYPES = ['float32', 'int64'];  // printed without a dtype (torch's default float, and int64)

// Python's float.__format__ rounds the exact binary value half to even ('{:.4f}', '{:.4e}'); JS's toFixed
// rounds ties away from zero. So decimals come from the exact value: |v| = m · 2^e.
const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);
function roundScaled(v, p) {  // round(|v| · 10^p) half to even, as a BigInt; p may be negative
  f64[0] = Math.abs(v);
  const bits = u64[0], expBits = Number((bits >> 52n) & 0x7ffn);
  const m = (bits & ((1n << 52n) - 1n)) | (expBits ? 1n << 52n : 0n);
  const e = (expBits || 1) - 1075;
  let num = m, den = 1n;
  if (e >= 0) num <<= BigInt(e); else den <<= BigInt(-e);
  if (p >= 0) num *= 10n ** BigInt(p); else den *= 10n ** BigInt(-p);
  let q = num / den;
  const twice = 2n * (num % den);
  if (twice > den || (twice === den && (q & 1n))) q += 1n;
  return q;
}
const sign = (v) => (v < 0 || Object.is(v, -0) ? '-' : '');
const nonFinite = (v) => (Number.isNaN(v) ? 'nan' : `${sign(v)}inf`);

function fixed(v, p) {  // Python '{:.{p}f}'
  if (!Number.isFinite(v)) return nonFinite(v);
  let s = roundScaled(v, p).toString();
  if (p > 0) { s = s.padStart(p + 1, '0'); s = `${s.slice(0, -p)}.${s.slice(-p)}`; }
  return sign(v) + s;
}

function scientific(v, p) {  // Python '{:.{p}e}'
  if (!Number.isFinite(v)) return nonFinite(v);
  let k = 0, q = 0n;
  if (v !== 0) {
    const lo = 10n ** BigInt(p), hi = 10n * lo;
    k = Math.floor(Math.log10(Math.abs(v)));
    for (;;) {  // log10 can be one off near powers of ten; rounding up can carry into a new digit
      q = roundScaled(v, p - k);
      if (q >= hi) k += 1; else if (q < lo) k -= 1; else break;
    }
  }
  const digits = q.toString().padStart(p + 1, '0');
  const mantissa = p > 0 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign(v)}${mantissa}e${k < 0 ? '-' : '+'}${String(Math.abs(k)).padStart(2, '0')}`;
}

// Python's repr(float): the shortest digits that read back as v (as JS's), in Python's layout: positional for
// exponents -5 < e < 16 with at least one decimal ('3.0'), else 'd.ddde+XX' with two exponent digits at least.
export function pythonFloat(v) {
  if (!Number.isFinite(v)) return nonFinite(v);
  if (v === 0) return `${sign(v)}0.0`;
  const [mant, exp] = Math.abs(v).toExponential().split('e');
  const digits = mant.replace('.', ''), e = Number(exp);
  if (e < -4 || e >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign(v)}${m}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  const point = e + 1;  // digits before the decimal point
  const int = point <= 0 ? '0' : digits.slice(0, point).padEnd(point, '0');
  const frac = point <= 0 ? '0'.repeat(-point) + digits : digits.slice(point);
  return `${sign(v)}${int}.${frac || '0'}`;
}

// torch's _Formatter: one width and one notation for every element printed.
function makeFormatter(values, floating) {
  let intMode = true, sciMode = false, maxWidth = 1;
  if (!floating) {
    for (const v of values) maxWidth = Math.max(maxWidth, String(v).length);
  } else {
    const finite = values.filter((v) => Number.isFinite(v) && v !== 0);
    if (finite.length) {
      const abs = finite.map(Math.abs);
      const min = Math.min(...abs), max = Math.max(...abs);
      intMode = finite.every((v) => v === Math.ceil(v));
      sciMode = max / min > 1000 || max > 1e8 || (!intMode && min < 1e-4);
      for (const v of finite) {
        const width = sciMode ? scientific(v, PRECISION).length
          : intMode ? fixed(v, 0).length + 1 : fixed(v, PRECISION).length;
        maxWidth = Math.max(maxWidth, width);
      }
    }
  }
  const format = (v) => {
    let s;
    if (!floating) s = String(v);
    else if (sciMode) s = scientific(v, PRECISION);
    else if (intMode) s = fixed(v, 0) + (Number.isFinite(v) ? '.' : '');
    else s = fixed(v, PRECISION);
    return s.padStart(maxWidth);
  };
  return { width: maxWidth, format };
}

// A view of the flat values: dims and strides from an offset (row-major, contiguous).
function view(values, shape) {
  const strides = shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1));
  const at = (v, i) => ({ offset: v.offset + i * strides[v.dim], dim: v.dim + 1 });
  return { root: { offset: 0, dim: 0 }, at, size: (v) => shape[v.dim], rank: (v) => shape.length - v.dim };
}

// The indices printed along a dimension of size n: all, or the edge items with a gap between.
// Only what is printed is listed: a summarised dimension may hold hundreds of millions of elements.
function shown(n, summarize) {
  const range = (a, b) => Array.from({ length: b - a }, (_, i) => a + i);
  return summarize && n > 2 * EDGEITEMS ? [...range(0, EDGEITEMS), null, ...range(n - EDGEITEMS, n)] : range(0, n);
}

// get_summarized_data: the elements the formatter measures (those printed).
function printedValues(values, t, v, summarize, out) {
  if (t.rank(v) === 0) { out.push(values[v.offset]); return out; }
  for (const i of shown(t.size(v), summarize)) if (i !== null) printedValues(values, t, t.at(v, i), summarize, out);
  return out;
}

function tensorStr(values, t, v, indent, summarize, fmt) {
  const rank = t.rank(v);
  if (rank === 0) return fmt.format(values[v.offset]);
  const idx = shown(t.size(v), summarize);
  if (rank === 1) {  // _vector_str
    const perLine = Math.max(1, Math.floor((LINEWIDTH - indent) / (fmt.width + 2)));
    const data = idx.map((i) => (i === null ? ' ...' : fmt.format(values[t.at(v, i).offset])));
    const lines = [];
    for (let i = 0; i < data.length; i += perLine) lines.push(data.slice(i, i + perLine).join(', '));
    return `[${lines.join(`,\n${' '.repeat(indent + 1)}`)}]`;
  }
  const slices = idx.map((i) => (i === null ? '...' : tensorStr(values, t, t.at(v, i), indent + 1, summarize, fmt)));
  return `[${slices.join(`,${'\n'.repeat(rank - 1)}${' '.repeat(indent + 1)}`)}]`;
}

function addSuffixes(str, suffixes, indent) {  // _add_suffixes: a suffix that would pass column 80 starts a line
  let out = str, lastLineLen = str.length - str.lastIndexOf('\n') + 1;
  for (const s of suffixes) {
    if (lastLineLen + s.length + 2 > LINEWIDTH) { out += `,\n${' '.repeat(indent)}${s}`; lastLineLen = indent + s.length; }
    else { out += `, ${s}`; lastLineLen += s.length + 2; }
  }
  return `${out})`;
}

const pyTuple = (shape) => (shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`);

export function tensorRepr(values, shape, dtype) {
  const prefix = 'tensor(', indent = prefix.length, suffixes = [];
  const floating = dtype === 'float32';
  let body;
  if (values.length === 0) {
    if (shape.length !== 1) suffixes.push(`size=${pyTuple(shape)}`);
    body = '[]';
  } else {
    const summarize = values.length > THRESHOLD;
    const t = view(values, shape);
    const fmt = makeFormatter(printedValues(values, t, t.root, summarize, []), floating);
    body = tensorStr(values, t, t.root, indent, summarize, fmt);
  }
  if (!DEFAULT_DTYPES.includes(dtype)) suffixes.push(`dtype=torch.${dtype}`);
  return addSuffixes(prefix + body, suffixes, indent);
}
