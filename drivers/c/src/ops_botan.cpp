/* ops for Botan 2 through its C++ API (provider cpp:botan). C++17; the ops.h functions have C
 * linkage and never let an exception out.
 *
 * The way a user of this API does each operation: HashFunction update/final; a
 * MessageAuthenticationCode keyed once per cell; Cipher_Mode (CBC/NoPadding, GCM, CCM(16,3),
 * ChaCha20Poly1305, which is XChaCha20Poly1305 with a 24-byte nonce) keyed once per cell, then per
 * message start(nonce) and finish() on a secure_vector holding the input (Botan's finish works in
 * place, so the input is copied into that working buffer: part of the API's use, inside the timed
 * region); StreamCipher for CTR-BE and ChaCha(20) (set_iv per message, seek for the ChaCha20 block
 * counter, cipher() out of place); BlockCipher::encrypt_n for ECB, which Botan 2 has no
 * Cipher_Mode for. Streaming: update() on whole multiples of update_granularity(), finish() on the
 * last piece. Public-key algorithms are in ops_botan_pk.cpp; this file dispatches their cells
 * there.
 */
#include "ops_botan_setup.h"
/* a public-key cell hands its work to ops_botan_pk.cpp's (ops_module.h) */
#define OPS_SUBCELLS(X) X(pk, pk_cell)

#include "ops_botan_cell.h"
#include "ops_module.h"
#include "ops_pk.h"
#include "ops_regen.h"
#include <cryptobench/kit.h>

#include <algorithm>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include <botan/aead.h>
#include <botan/block_cipher.h>
#include <botan/build.h>
#include <botan/cipher_mode.h>
#include <botan/exceptn.h>
#include <botan/hash.h>
#include <botan/mac.h>
#include <botan/stream_cipher.h>
#include <botan/version.h>

#if BOTAN_VERSION_MAJOR != 2
#error "ops_botan.cpp is written for Botan 2 (Debian's libbotan-2-dev)"
#endif

namespace {

enum kind { K_NOOP, K_HASH, K_MAC, K_BLOCK, K_STREAM, K_MODE, K_AEAD };
/* each kind's operations are the kit's (include/cryptobench/kit.h) */
const cb_kit_kind KIT_KIND[] = {CB_KIT_NOOP,   CB_KIT_HASH,   CB_KIT_MAC, CB_KIT_CIPHER,
                                CB_KIT_CIPHER, CB_KIT_CIPHER, CB_KIT_AEAD};
enum op { OP_NOOP, OP_HASH, OP_MAC, OP_ENCRYPT, OP_DECRYPT, OP_SEAL, OP_OPEN };
const char *const OP_NAMES[] = {"noop", "hash", "mac", "encrypt", "decrypt", "seal", "open"};

struct alg_def {
  const char *name;  /* protocol name */
  const char *botan; /* Botan's name for the object */
  kind k;
  size_t key_len; /* 0: any (HMAC) or none */
  size_t iv_len;  /* 0: none (ECB) or, for GCM, any the mode accepts */
  size_t block;   /* messages must be a multiple of this */
  bool stream;    /* has a streaming API here */
};

const alg_def DEFS[] = {
    {"noop", "", K_NOOP, 0, 0, 1, false},
    {"sha256", "SHA-256", K_HASH, 0, 0, 1, true},
    {"sha512", "SHA-512", K_HASH, 0, 0, 1, true},
    {"sha3-256", "SHA-3(256)", K_HASH, 0, 0, 1, true},
    {"sha3-512", "SHA-3(512)", K_HASH, 0, 0, 1, true},
    {"blake2b-512", "BLAKE2b(512)", K_HASH, 0, 0, 1, true},
    {"sm3", "SM3", K_HASH, 0, 0, 1, true},
    {"hmac-sha256", "HMAC(SHA-256)", K_MAC, 0, 0, 1, true},
    {"aes-128-ecb", "AES-128", K_BLOCK, 16, 0, 16, false},
    {"aes-256-ecb", "AES-256", K_BLOCK, 32, 0, 16, false},
    {"aes-128-cbc", "AES-128/CBC/NoPadding", K_MODE, 16, 16, 16, true},
    {"aes-256-cbc", "AES-256/CBC/NoPadding", K_MODE, 32, 16, 16, true},
    {"aes-128-ctr", "CTR-BE(AES-128)", K_STREAM, 16, 16, 1, true},
    {"aes-256-ctr", "CTR-BE(AES-256)", K_STREAM, 32, 16, 1, true},
    {"chacha20", "ChaCha(20)", K_STREAM, 32, 12, 1, true},
    {"aes-128-gcm", "AES-128/GCM", K_AEAD, 16, 0, 1, true},
    {"aes-256-gcm", "AES-256/GCM", K_AEAD, 32, 0, 1, true},
    /* CCM(tag, L): a 12-byte nonce leaves L = 15 - 12 = 3 length bytes. CCM's update() only
     * buffers, the whole output comes from finish(): not streamable with bounded memory */
    {"aes-128-ccm", "AES-128/CCM(16,3)", K_AEAD, 16, 12, 1, false},
    {"aes-256-ccm", "AES-256/CCM(16,3)", K_AEAD, 32, 12, 1, false},
    {"chacha20-poly1305", "ChaCha20Poly1305", K_AEAD, 32, 12, 1, true},
    {"xchacha20-poly1305", "ChaCha20Poly1305", K_AEAD, 32, 24, 1, true},
    {"sm4-ecb", "SM4", K_BLOCK, 16, 0, 16, false},
    {"sm4-cbc", "SM4/CBC/NoPadding", K_MODE, 16, 16, 16, true},
    {"sm4-ctr", "CTR-BE(SM4)", K_STREAM, 16, 16, 1, true},
    {"sm4-gcm", "SM4/GCM", K_AEAD, 16, 0, 1, true},
};
constexpr size_t NDEFS = sizeof DEFS / sizeof DEFS[0];

constexpr size_t MAX_PK = 40; /* public-key catalogue entries (ops_botan_pk.cpp) */
ops_alg catalogue[NDEFS + MAX_PK];
const alg_def *catalogue_def[NDEFS + MAX_PK]; /* nullptr: a public-key algorithm */
size_t catalogue_len;

bool probe(const alg_def &d) {
  try {
    switch (d.k) {
    case K_NOOP:
      return true;
    case K_HASH:
      return Botan::HashFunction::create(d.botan) != nullptr;
    case K_MAC:
      return Botan::MessageAuthenticationCode::create(d.botan) != nullptr;
    case K_BLOCK:
      return Botan::BlockCipher::create(d.botan) != nullptr;
    case K_STREAM:
      return Botan::StreamCipher::create(d.botan) != nullptr;
    case K_MODE:
    case K_AEAD: {
      auto m = Botan::Cipher_Mode::create(d.botan, Botan::ENCRYPTION);
      return m != nullptr && (d.iv_len == 0 || m->valid_nonce_length(d.iv_len));
    }
    }
  } catch (const std::exception &) {
  }
  return false;
}

/* e.g. "CBC 256, GCM 64, ChaCha20Poly1305 64": what update() takes, for the notes */
std::string granularities() {
  std::string s;
  for (const char *n : {"AES-128/CBC/NoPadding", "AES-128/GCM", "ChaCha20Poly1305"}) {
    try {
      auto m = Botan::Cipher_Mode::create(n, Botan::ENCRYPTION);
      if (m == nullptr)
        continue;
      if (!s.empty())
        s += ", ";
      s += m->name() + " " + std::to_string(m->update_granularity());
    } catch (const std::exception &) {
    }
  }
  return s;
}

std::string implementations() {
  std::string s;
  try {
    auto aes = Botan::BlockCipher::create("AES-128");
    auto gcm = Botan::Cipher_Mode::create("AES-128/GCM", Botan::ENCRYPTION);
    auto cc = Botan::StreamCipher::create("ChaCha(20)");
    auto sha = Botan::HashFunction::create("SHA-256");
    std::string a = aes ? aes->provider() : "?";
    s = "implementations Botan chose: AES " + (a == "cpu" ? a + " (AES-NI)" : a) + ", GCM " +
        (gcm ? gcm->provider() : "?") + ", ChaCha " + (cc ? cc->provider() : "?") + ", SHA-256 " +
        (sha ? sha->provider() : "?");
  } catch (const std::exception &e) {
    s = std::string("implementations: ") + e.what();
  }
  return s;
}

/* What the copy into Cipher_Mode's working buffer costs here: the median of 15 timings of 256
 * buf.assign() calls of 16 KiB (cache-resident), in ns per copy. Measured for the hello notes. */
double copy_16k_ns() {
  std::vector<uint8_t> src(16384, 0x5a);
  Botan::secure_vector<uint8_t> buf;
  buf.reserve(src.size());
  std::vector<double> t;
  unsigned sink = 0;
  for (int s = 0; s < 15; s++) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 256; i++) {
      src[static_cast<size_t>(i)] ^= 1;
      buf.assign(src.begin(), src.end());
      sink += buf[static_cast<size_t>(i)];
    }
    auto t1 = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / 256);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2] + (sink == 0xffffffffu ? 1 : 0);
}

} // namespace

struct ops_cell {
  ops_cell() = default;
  ops_cell(const ops_cell &) = delete;
  ops_cell &operator=(const ops_cell &) = delete;
  ~ops_cell() { pk_cell_free(pk); }
  pk_cell *pk = nullptr; /* a public-key cell (ops_botan_pk.cpp) */
  const alg_def *def = nullptr;
  op o = OP_NOOP;
  const uint8_t *in = nullptr; /* data to process (open: ciphertext || tag) */
  size_t in_len = 0;           /* bytes to process (open: without the tag) */
  size_t period = 0;           /* > 0: `in` is the periodic pattern (ops_params.period) */
  size_t step = 0;             /* bytes per update call */
  bool streaming = false;
  size_t extra = 0; /* open: the tag after the ciphertext, given to finish() */
  ops_tap *tap = nullptr;
  std::vector<uint8_t> iv, aad;
  uint32_t counter = 0;
  std::unique_ptr<Botan::HashFunction> hash;
  std::unique_ptr<Botan::MessageAuthenticationCode> mac;
  std::unique_ptr<Botan::BlockCipher> bc;
  std::unique_ptr<Botan::StreamCipher> sc;
  std::unique_ptr<Botan::Cipher_Mode> mode;
  Botan::AEAD_Mode *aead = nullptr;  /* mode, when it is an AEAD (for the associated data) */
  Botan::secure_vector<uint8_t> buf; /* Cipher_Mode's working buffer, reserved once */
  size_t buf_cap = 0;
  std::vector<uint8_t> out; /* hash, MAC, stream and block cipher output */
  const uint8_t *out_ptr = nullptr;
  size_t out_len = 0;
  std::string err;
  /* regen (a big streamed decrypt/open, ops.h): `in` is the plaintext pattern and each piece of
   * ciphertext is made again just before it is consumed, by an encrypting twin of the cell */
  bool regen = false;
  std::unique_ptr<Botan::StreamCipher> gsc;  /* CTR, ChaCha20 */
  std::unique_ptr<Botan::Cipher_Mode> gmode; /* CBC, GCM, ChaCha20Poly1305 */
  Botan::secure_vector<uint8_t> gbuf;        /* one piece of ciphertext (the last: and its tag) */
  uint64_t untimed_ns = 0;                   /* spent making it, subtracted by timing.c */
};

OPS_MODULE_SUBCELL_WRAPS(new (std::nothrow) ops_cell)

namespace {

/* Everything outside the timed region; throws on a library error. 0, or -1 with err set. */
int prepare(ops_cell *c, const ops_params *p, char *err, size_t errlen) {
  const alg_def *d = c->def;
  static const uint8_t empty[1] = {0};
  const uint8_t *key = p->key != nullptr ? p->key : empty;
  switch (d->k) {
  case K_NOOP:
    return 0;
  case K_HASH:
    c->hash = Botan::HashFunction::create_or_throw(d->botan);
    c->out.resize(c->hash->output_length());
    return 0;
  case K_MAC:
    c->mac = Botan::MessageAuthenticationCode::create_or_throw(d->botan);
    c->mac->set_key(key, p->key_len);
    c->out.resize(c->mac->output_length());
    return 0;
  default:
    break;
  }
  if (ops_key_block_checks(p, d->name, d->key_len, d->block, c->in_len, err, errlen) != 0)
    return -1;
  if (d->k != K_BLOCK &&
      ops_iv_checks(p, d->name, d->iv_len, d->k == K_AEAD, SIZE_MAX, err, errlen) != 0)
    return -1;
  c->iv.assign(p->iv != nullptr ? p->iv : empty, (p->iv != nullptr ? p->iv : empty) + p->iv_len);
  if (p->aad != nullptr && p->aad_len > 0)
    c->aad.assign(p->aad, p->aad + p->aad_len);
  c->counter = p->counter;

  switch (d->k) {
  case K_BLOCK:
    c->bc = Botan::BlockCipher::create_or_throw(d->botan);
    c->bc->set_key(p->key, p->key_len);
    c->out.resize(c->in_len > 0 ? c->in_len : 1);
    return 0;
  case K_STREAM:
    c->sc = Botan::StreamCipher::create_or_throw(d->botan);
    c->sc->set_key(p->key, p->key_len);
    if (!c->sc->valid_iv_length(p->iv_len)) {
      cb_kit_err(err, errlen, "IV length %zu not accepted by %s", p->iv_len, d->botan);
      return -1;
    }
    c->out.resize(c->step > 0 ? c->step : 1);
    if (c->regen) {
      c->gsc = Botan::StreamCipher::create_or_throw(d->botan);
      c->gsc->set_key(p->key, p->key_len);
    }
    return 0;
  default:
    break;
  }

  /* Cipher_Mode: CBC, GCM, CCM, ChaCha20Poly1305 */
  const bool enc = c->o == OP_ENCRYPT || c->o == OP_SEAL;
  c->mode =
      Botan::Cipher_Mode::create_or_throw(d->botan, enc ? Botan::ENCRYPTION : Botan::DECRYPTION);
  c->aead = dynamic_cast<Botan::AEAD_Mode *>(c->mode.get());
  if (!c->mode->valid_nonce_length(p->iv_len)) {
    cb_kit_err(err, errlen, "nonce length %zu not accepted by %s", p->iv_len,
               c->mode->name().c_str());
    return -1;
  }
  if (!c->aad.empty() && c->aead == nullptr) {
    cb_kit_err(err, errlen, "%s takes no associated data", d->name);
    return -1;
  }
  c->mode->set_key(p->key, p->key_len);
  if (botan_ccm_fits(d->k == K_AEAD && d->iv_len == 12 && std::strstr(d->botan, "CCM") != nullptr,
                     d->name, c->in_len, err, errlen) != 0)
    return -1;
  if (c->streaming && c->step < c->in_len) {
    size_t g = c->mode->update_granularity();
    if (c->step % g != 0) {
      cb_kit_err(err, errlen,
                 "not offered: Botan's Cipher_Mode::update() for %s takes whole multiples of "
                 "update_granularity() = %zu bytes; chunk %zu is not one",
                 c->mode->name().c_str(), g, c->step);
      return -1;
    }
  }
  /* the working buffer: the input (a piece, or the whole message), the tag, a block of slack */
  c->buf_cap = (c->streaming ? c->step : c->in_len) + OPS_TAG_LEN + 32;
  c->buf.reserve(c->buf_cap);
  if (c->regen) {
    c->gmode = Botan::Cipher_Mode::create_or_throw(d->botan, Botan::ENCRYPTION);
    c->gmode->set_key(p->key, p->key_len);
    c->gbuf.reserve(c->buf_cap);
  }
  return 0;
}

/* regen: the ciphertext of the `len` plaintext bytes at `off`, off the clock; reads go in order
 * from offset 0 (which restarts the encrypting twin). `last` finishes the message: for open the
 * piece is then followed by its tag. */
const uint8_t *regenerate(ops_cell *c, size_t off, size_t len, bool last) {
  uint64_t t0 = ops_regen_now_ns();
  const uint8_t *plain = ops_input_at(c->in, c->period, off);
  if (c->gsc != nullptr) {
    if (off == 0) {
      c->gsc->set_iv(c->iv.data(), c->iv.size());
      if (c->counter != 0)
        c->gsc->seek(static_cast<uint64_t>(c->counter) * 64);
    }
    c->gbuf.resize(len);
    c->gsc->cipher(plain, c->gbuf.data(), len);
  } else {
    if (off == 0) {
      if (!c->aad.empty()) /* never in bench cells: no cast per operation there */
        if (auto *aead = dynamic_cast<Botan::AEAD_Mode *>(c->gmode.get()))
          aead->set_associated_data(c->aad.data(), c->aad.size());
      c->gmode->start(c->iv.data(), c->iv.size());
    }
    c->gbuf.assign(plain, plain + len);
    if (last)
      c->gmode->finish(c->gbuf);
    else
      c->gmode->update(c->gbuf);
  }
  c->untimed_ns += ops_regen_now_ns() - t0;
  return c->gbuf.data();
}

/* ---- one operation each ---- */

int run_hash(ops_cell *c) {
  for (size_t off = 0; off < c->in_len; off += c->step) {
    size_t len = c->in_len - off < c->step ? c->in_len - off : c->step;
    c->hash->update(ops_input_at(c->in, c->period, off), len);
  }
  c->hash->final(c->out.data());
  c->out_ptr = c->out.data();
  c->out_len = c->out.size();
  if (c->tap != nullptr)
    ops_tap_fold(c->tap, c->out_ptr, c->out_len);
  return c->out[0];
}

int run_mac(ops_cell *c) {
  for (size_t off = 0; off < c->in_len; off += c->step) {
    size_t len = c->in_len - off < c->step ? c->in_len - off : c->step;
    c->mac->update(ops_input_at(c->in, c->period, off), len);
  }
  c->mac->final(c->out.data()); /* and ready for the next message with the same key */
  c->out_ptr = c->out.data();
  c->out_len = c->out.size();
  if (c->tap != nullptr)
    ops_tap_fold(c->tap, c->out_ptr, c->out_len);
  return c->out[0];
}

int run_block(ops_cell *c) {
  size_t blocks = c->in_len / c->bc->block_size();
  if (c->o == OP_ENCRYPT)
    c->bc->encrypt_n(c->in, c->out.data(), blocks);
  else
    c->bc->decrypt_n(c->in, c->out.data(), blocks);
  c->out_ptr = c->out.data();
  c->out_len = c->in_len;
  return c->out_len > 0 ? c->out[0] : 0;
}

int run_stream(ops_cell *c) {
  c->sc->set_iv(c->iv.data(), c->iv.size());
  if (c->counter != 0)
    c->sc->seek(static_cast<uint64_t>(c->counter) * 64);
  size_t len = 0;
  for (size_t off = 0; off < c->in_len; off += c->step) {
    len = c->in_len - off < c->step ? c->in_len - off : c->step;
    const uint8_t *in =
        c->regen ? regenerate(c, off, len, false) : ops_input_at(c->in, c->period, off);
    c->sc->cipher(in, c->out.data(), len);
    if (c->tap != nullptr)
      ops_tap_fold(c->tap, c->out.data(), len);
  }
  c->out_ptr = c->out.data();
  c->out_len = len;
  return len > 0 ? c->out[0] : 0;
}

int run_mode(ops_cell *c) {
  if (c->aead != nullptr && !c->aad.empty())
    c->aead->set_associated_data(c->aad.data(), c->aad.size());
  c->mode->start(c->iv.data(), c->iv.size());
  size_t off = 0;
  if (c->streaming) {
    /* every piece but the last through update(), in place in the working buffer */
    for (; c->in_len - off > c->step; off += c->step) {
      const uint8_t *piece =
          c->regen ? regenerate(c, off, c->step, false) : ops_input_at(c->in, c->period, off);
      c->buf.assign(piece, piece + c->step);
      c->mode->update(c->buf);
      if (c->tap != nullptr)
        ops_tap_fold(c->tap, c->buf.data(), c->buf.size());
    }
  }
  /* the last piece (one-shot: the whole message), for open with the tag that follows it */
  const uint8_t *rest =
      c->regen ? regenerate(c, off, c->in_len - off, true) : ops_input_at(c->in, c->period, off);
  c->buf.assign(rest, rest + (c->in_len - off) + c->extra);
  try {
    c->mode->finish(c->buf);
  } catch (const Botan::Invalid_Authentication_Tag &) {
    if (c->o == OP_OPEN)
      return OPS_REJECTED;
    throw;
  }
  c->out_ptr = c->buf.data();
  c->out_len = c->buf.size();
  if (c->tap != nullptr)
    ops_tap_fold(c->tap, c->out_ptr, c->out_len);
  return c->out_len > 0 ? c->out_ptr[0] : 0;
}

} // namespace

/* ---- the interface (C linkage) ---- */

extern "C" {

OPS_REGEN_DEFINE_EXPORTS

int mod_init(char *err, size_t errlen) {
  try {
    catalogue_len = 0;
    for (size_t i = 0; i < NDEFS; i++) {
      const alg_def &d = DEFS[i];
      if (!probe(d))
        continue;
      ops_alg_entry(&catalogue[catalogue_len], d.name, KIT_KIND[d.k], d.stream);
      catalogue_def[catalogue_len++] = &d;
    }
    size_t npk = pk_catalogue(catalogue + catalogue_len, MAX_PK);
    for (size_t i = 0; i < npk; i++)
      catalogue_def[catalogue_len++] = nullptr;
  } catch (const std::exception &e) {
    cb_kit_err(err, errlen, "Botan: %s", e.what());
    return -1;
  }
  return 0;
}

int mod_provider_accepts(const char *id) { return std::strcmp(id, "cpp:botan") == 0; }

const char *mod_library_name(void) { return "Botan"; }

const char *mod_library_version(void) { return Botan::version_cstr(); }

size_t mod_notes(const char *provider, const char **notes, size_t max) {
  static std::string built, impl, gran, copy;
  (void)provider;
  try {
    built = "built against Botan headers " + std::to_string(BOTAN_VERSION_MAJOR) + "." +
            std::to_string(BOTAN_VERSION_MINOR) + "." + std::to_string(BOTAN_VERSION_PATCH) +
            "; the C++ API (g++ -std=c++17)";
    impl = implementations();
    char c[600];
    double ns = copy_16k_ns();
    snprintf(c, sizeof c,
             "the input copy into Cipher_Mode's working buffer, measured in this process: %.0f ns "
             "per 16 KiB (%.1f GB/s), part of every CBC/GCM/CCM/ChaCha20Poly1305 operation. The "
             "buffer is reused, so assign() overwrites with memmove; a fresh or cleared "
             "secure_vector would be filled element by element (libstdc++ with Botan's "
             "allocator), many times slower: what c:botan-ffi pays",
             ns, 16384 / ns);
    copy = c;
    gran = "streamed Cipher_Mode cells: update() on each piece but the last (copied into the "
           "working buffer), finish() on the last; update() takes whole multiples of "
           "update_granularity() (" +
           granularities() +
           " bytes), other chunks answer not offered (this driver does not buffer); CTR and "
           "ChaCha20 (StreamCipher) take any chunk";
  } catch (const std::exception &e) {
    impl = e.what();
  }
  const char *text[] = {
      built.c_str(),
      impl.c_str(),
      copy.c_str(),
      "hashes: HashFunction::create, update + final per message; hmac-sha256: "
      "MessageAuthenticationCode::create(\"HMAC(SHA-256)\"), key set once per cell",
      "CBC (NoPadding), GCM, CCM(16,3), ChaCha20Poly1305 (a 24-byte nonce makes it "
      "XChaCha20Poly1305): Cipher_Mode::create, key set once per cell; per message start(nonce), "
      "the input copied into a pre-reserved secure_vector (buf.assign), finish(buf) in place: that "
      "copy is how this API is used and is inside the timed region",
      "CTR and ChaCha20: StreamCipher::create(\"CTR-BE(AES-n)\" / \"ChaCha(20)\"), key set once "
      "per cell; per message set_iv(nonce) (and seek() for a ChaCha20 block counter), cipher(in, "
      "out) out of place, no copy",
      "ECB: Botan 2 has no ECB Cipher_Mode; BlockCipher::encrypt_n / decrypt_n over the message "
      "(one-shot, not in stream)",
      gran.c_str(),
      "CCM: update() only buffers, finish() produces everything, so not in stream; a 12-byte nonce "
      "leaves L = 3 length bytes: messages below 2^24 bytes (larger: not offered at this size)",
      "BLAKE2s is not in Botan 2: not offered",
  };
  return ops_notes_and(text, sizeof text / sizeof text[0], notes, max, pk_notes);
}

OPS_MODULE_ALG_AT

void mod_cell_free(ops_cell *c) { delete c; }

static ops_cell *cell_new(const alg_def *d, size_t idx, int opi, const ops_params *p, char *err,
                          size_t errlen) {
  (void)idx; /* d is all a cell needs */
  op o = static_cast<op>(opi);
  if (botan_sym_checks(p, d->name, d->stream, d->botan, o == OP_DECRYPT,
                       "has no streaming API in Botan here", err, errlen) != 0)
    return nullptr;
  ops_cell *c = mod_cell_alloc();
  if (c == nullptr) {
    cb_kit_err(err, errlen, "out of memory");
    return nullptr;
  }
  c->def = d;
  c->o = o;
  OPS_CELL_INPUT(c, p, o == OP_DECRYPT || o == OP_OPEN);
  if (o == OP_OPEN && c->regen) {
    c->extra = OPS_TAG_LEN; /* made by the encrypting twin after the last piece */
  } else if (o == OP_OPEN) {
    if (ops_open_fits(p, err, errlen) != 0) {
      delete c;
      return nullptr;
    }
    c->in_len = p->msg_len - OPS_TAG_LEN;
    c->extra = OPS_TAG_LEN;
  }
  c->step = ops_step(p, c->in_len);
  return botan_set_up(c, d->name, err, errlen, [&] { return prepare(c, p, err, errlen); });
}

OPS_MODULE_CELL_NEW(k, OPS_PK_SUBCELL_FIRST)

int mod_cell_run(ops_cell *c) {
  OPS_SUBCELLS(OPS_SUB_RUN)
  try {
    switch (c->def->k) {
      OPS_RUN_NOOP_HASH_MAC
    case K_BLOCK:
      return run_block(c);
    case K_STREAM:
      return run_stream(c);
    case K_MODE:
    case K_AEAD:
      return run_mode(c);
    }
  } catch (const std::exception &e) {
    c->err = e.what();
  }
  return OPS_FAIL;
}

OPS_MODULE_CELL_FUNCTIONS(out_ptr, c->err.c_str())
OPS_MODULE_NOTHING_TO_PREPARE
OPS_MODULE_PK_KEYPAIR

OPS_MODULE_EXPORT(mod_regenerates_ciphertext, mod_cell_untimed_ns)

} // extern "C"
