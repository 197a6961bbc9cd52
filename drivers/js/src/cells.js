// The cell shapes the symmetric ops_* modules share (ops.js describes a
// Cell). Runtime-neutral: Node and the browser load the same file.
//
// CallCell   one operation is one call make(input, out) returning the
//            output (a one-shot cipher, hash or AEAD call).
// HashCell   one hash or MAC operation: make() (a new object, or the one
//            made once per cell reset or cloned), absorb the whole message
//            (pieces null) or each piece, finish.
// StreamCell one streamed operation (chunk > 0) through a stream s =
//            { make(), proc(o, piece), fin(o) }: a new library object per
//            message, proc per piece (each output piece dropped after its
//            first byte goes to the sink: memory stays bounded), fin.
//            streamOut runs the same operation into a sink (an Fnv64 for
//            the checksum, a Collector for the ciphertext a streamed
//            decrypt reads).

import { Fnv64 } from "./input.js";
import { EMPTY, first } from "./ops.js";

export class CallCell {
  // out: the output buffer make writes into where the API takes one
  constructor(make, input, out = EMPTY) {
    this.async = false;
    this.make = make;
    this.in = input;
    this.out = out;
    this.last = out;
  }
  run() {
    const o = this.make(this.in, this.out);
    this.last = o;
    return first(o);
  }
  output() {
    return this.last;
  }
}

// HashCell: absorb and finish are methods a library's subclass overrides
// (the defaults: update(data), digest()).
export class HashCell {
  constructor(make, msg, pieces) {
    this.async = false;
    this.make = make;
    this.msg = msg;
    this.pieces = pieces;
    this.out = EMPTY;
  }
  run() {
    const h = this.make();
    const p = this.pieces;
    if (p === null) {
      this.absorb(h, this.msg);
    } else {
      for (let k = 0; k < p.count; k++) this.absorb(h, p.at(k));
    }
    const d = this.finish(h);
    this.out = d;
    return d[0];
  }
  absorb(h, data) {
    h.update(data);
  }
  finish(h) {
    return h.digest();
  }
  output() {
    return this.out;
  }
}

export class StreamCell {
  constructor(s, pieces) {
    this.async = false;
    this.s = s;
    this.pieces = pieces;
  }
  run() {
    const s = this.s;
    const p = this.pieces;
    const o = s.make();
    let r = 0;
    for (let k = 0; k < p.count; k++) {
      const out = s.proc(o, p.at(k));
      if (out.length !== 0) r = out[0];
    }
    const f = s.fin(o);
    return f.length !== 0 ? f[0] : r;
  }
  // checksum performs one operation and checksums its output stream.
  checksum() {
    return streamOut(this.s, this.pieces, new Fnv64()).checksum();
  }
  takeUntimedNs() {
    return this.pieces.takeUntimedNs();
  }
}

// streamOut runs one streamed operation, handing every output piece to
// sink.update.
export function streamOut(s, p, sink) {
  const o = s.make();
  for (let k = 0; k < p.count; k++) sink.update(s.proc(o, p.at(k)));
  sink.update(s.fin(o));
  return sink;
}

// Collector keeps a streamed output whole (the ciphertext a streamed
// decrypt/open reads: the only size-proportional buffer).
export class Collector {
  constructor(size) {
    this.buf = new Uint8Array(size);
    this.length = 0;
  }
  update(b) {
    if (this.length + b.length > this.buf.length) throw new Error("output longer than expected");
    this.buf.set(b, this.length);
    this.length += b.length;
    return this;
  }
}
