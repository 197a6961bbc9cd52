// The fixed input (protocol.md, "The fixed input"): every driver generates
// the same message bytes from a seed with xorshift32, over a 1 MiB period;
// FNV-1a 64 (incremental), the checksum string and hex helpers.
//
// Runtime-neutral: no Node-only API, so the browser bridge loads it as is.

export const PATTERN_LEN = 1 << 20;

let cachedSeed = 0;
let cachedPattern = null;

// pattern returns the 1 MiB period of the xorshift32 byte stream for seed,
// kept twice (2 MiB) so that any piece of up to 1 MiB starting anywhere in
// the period is one contiguous view. Cached for the most recent seed and
// shared: callers must not modify it.
export function pattern(seed) {
  if (!Number.isInteger(seed) || seed <= 0 || seed > 0xffffffff) {
    throw new Error(`seed ${seed} must be a non-zero 32-bit integer`);
  }
  if (cachedPattern !== null && cachedSeed === seed) return cachedPattern;
  const p = new Uint8Array(2 * PATTERN_LEN);
  let x = seed >>> 0;
  for (let i = 0; i < PATTERN_LEN; i++) {
    x = (x ^ (x << 13)) >>> 0;
    x = (x ^ (x >>> 17)) >>> 0;
    x = (x ^ (x << 5)) >>> 0;
    p[i] = x & 0xff;
  }
  p.copyWithin(PATTERN_LEN, 0, PATTERN_LEN);
  cachedSeed = seed;
  cachedPattern = p;
  return p;
}

// message returns a fresh n-byte message M[i] = P[i mod 1 MiB] (the one-shot
// input; streamed cells read pieces of the pattern instead).
export function message(seed, n) {
  const p = pattern(seed);
  const m = new Uint8Array(n);
  for (let off = 0; off < n; off += PATTERN_LEN) {
    m.set(p.subarray(0, Math.min(PATTERN_LEN, n - off)), off);
  }
  return m;
}

// Pieces: the k-th chunk of a streamed message as a view of a source buffer
// (the doubled pattern, period 1 MiB, or a whole ciphertext, no period),
// so the message itself is never materialised. Making a view costs about
// 20 ns, which is not the library's, so the distinct views of a cell are
// made once up front when there are at most MAX_CACHED_VIEWS of them (the
// piece positions repeat every 1 MiB / gcd(chunk, 1 MiB) pieces); beyond
// that (an odd chunk over a long message) each piece's view is made when it
// is read.
export const MAX_CACHED_VIEWS = 1 << 16;

export class Pieces {
  // src: the source; period: PATTERN_LEN for the pattern, 0 for none.
  constructor(src, period, size, chunk) {
    if (!Number.isInteger(chunk) || chunk <= 0) throw new Error(`chunk ${chunk} must be positive`);
    if (period > 0 && chunk > period) throw new Error(`chunk ${chunk} is larger than the 1 MiB period`);
    if (period === 0 && size > src.length) throw new Error("source shorter than the message");
    this.src = src;
    this.period = period;
    this.size = size;
    this.chunk = chunk;
    this.full = Math.floor(size / chunk); // number of whole pieces
    this.count = this.full + (size % chunk === 0 ? 0 : 1);
    const tailLen = size - this.full * chunk;
    this.tail = tailLen > 0 ? this.view(this.full, tailLen) : null;
    // distinct whole-piece views before the positions repeat
    const distinct = period > 0 ? Math.min(this.full, period / gcd(chunk, period)) : this.full;
    this.cycle = distinct;
    this.views = null;
    if (distinct <= MAX_CACHED_VIEWS) {
      this.views = new Array(distinct);
      for (let k = 0; k < distinct; k++) this.views[k] = this.view(k, chunk);
    }
  }

  view(k, len) {
    const off = k * this.chunk;
    const start = this.period > 0 ? off % this.period : off;
    return this.src.subarray(start, start + len);
  }

  // takeUntimedNs: no work inside at() that is not the operation's (a
  // regenerating source, ops_node.js, has some).
  takeUntimedNs() {
    return 0;
  }

  // at(k) is piece k (0 <= k < count).
  at(k) {
    if (k >= this.full) return this.tail;
    if (this.views !== null) return this.views[k % this.cycle];
    return this.view(k, this.chunk);
  }
}

function gcd(a, b) {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

// ---- FNV-1a 64 ------------------------------------------------------------

// Fnv64 is incremental FNV-1a 64 over two 32-bit halves (exact in doubles:
// every intermediate stays below 2^53). Used outside timed code only.
export class Fnv64 {
  constructor() {
    this.hi = 0xcbf29ce4;
    this.lo = 0x84222325;
    this.length = 0;
  }

  update(bytes) {
    let hi = this.hi;
    let lo = this.lo;
    for (let i = 0; i < bytes.length; i++) {
      lo ^= bytes[i];
      // h * 0x100000001b3 = h * 0x1b3 + (h << 40)  (mod 2^64)
      const l = (lo >>> 0) * 0x1b3;
      const carry = Math.floor(l / 4294967296);
      hi = (hi * 0x1b3 + carry + ((lo << 8) >>> 0)) >>> 0;
      lo = l >>> 0;
    }
    this.hi = hi;
    this.lo = lo;
    this.length += bytes.length;
    return this;
  }

  hex() {
    return hex32(this.hi) + hex32(this.lo);
  }

  // checksum is "<length as 8 hex digits>:<FNV-1a 64 as 16 hex digits>".
  checksum() {
    return this.length.toString(16).padStart(8, "0") + ":" + this.hex();
  }
}

function hex32(v) {
  return (v >>> 0).toString(16).padStart(8, "0");
}

export function fnv1a64(bytes) {
  return new Fnv64().update(bytes).hex();
}

// checksum of one whole output.
export function checksum(bytes) {
  return new Fnv64().update(bytes).checksum();
}

// ---- hex ------------------------------------------------------------------

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

// toHex is lowercase hex, as the protocol wants.
export function toHex(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i++) s += HEX[bytes[i]];
  return s;
}

function nibble(c) {
  if (c >= 48 && c <= 57) return c - 48; // 0-9
  if (c >= 97 && c <= 102) return c - 87; // a-f
  if (c >= 65 && c <= 70) return c - 55; // A-F
  return -1;
}

// fromHex decodes a hex field of a request, naming the field on error. An
// absent field (undefined or null) is empty.
export function fromHex(field, s) {
  if (s === undefined || s === null) return new Uint8Array(0);
  if (typeof s !== "string") throw new Error(`bad hex in "${field}": not a string`);
  if (s.length % 2 !== 0) throw new Error(`bad hex in "${field}": odd length ${s.length}`);
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) {
    const h = nibble(s.charCodeAt(2 * i));
    const l = nibble(s.charCodeAt(2 * i + 1));
    if (h < 0 || l < 0) {
      throw new Error(`bad hex in "${field}": invalid character at offset ${h < 0 ? 2 * i : 2 * i + 1}`);
    }
    out[i] = (h << 4) | l;
  }
  return out;
}

// ---- regenerated ciphertext (runtime-neutral) -----------------------------

// RegenPieces reads the ciphertext of `plain` (Pieces of the pattern) for a
// big streamed decrypt/open (docs/protocol.md, "With chunk > 0", above 64
// MiB): piece k is encrypted by an encrypter from fresh() (made again at
// piece 0 of every operation) just before it is returned, and the time so
// spent, clock reads included, is kept for the timed batch to subtract
// (timing.js, takeUntimedNs). encrypter.update(piece) returns exactly that
// piece's ciphertext (the caller only uses it when the mode gives one
// output byte per input byte and the pieces are whole blocks). nowNs() is a
// runtime-neutral monotonic clock in ns (performance.now() x 1e6 by
// default: Node and browsers have it).
export class RegenPieces {
  constructor(plain, fresh, nowNs = () => performance.now() * 1e6) {
    this.plain = plain;
    this.fresh = fresh;
    this.nowNs = nowNs;
    this.count = plain.count;
    this.enc = null;
    this.untimedNs = 0;
  }
  at(k) {
    const t0 = this.nowNs();
    if (k === 0 || this.enc === null) this.enc = this.fresh();
    const piece = this.plain.at(k);
    const out = this.enc.update(piece);
    if (out.length !== piece.length)
      throw new Error(`regeneration: ${out.length} bytes of ciphertext for ${piece.length}`);
    this.untimedNs += this.nowNs() - t0;
    return out;
  }
  takeUntimedNs() {
    const ns = this.untimedNs;
    this.untimedNs = 0;
    return ns;
  }
}
