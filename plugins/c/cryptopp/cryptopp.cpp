// cpp:cryptopp — Crypto++ 8.7 as a cryptobench plugin, in C++ (the cb_provider
// table with C linkage, exceptions never crossing it), through its documented
// API: HashTransformation:: CalculateDigest, HMAC<SHA256> (keyed once per cell;
// Final() leaves it keyed), CBC_Mode / CTR_Mode<AES> (keyed once, Resynchronize
// per message) and the authenticated ciphers GCM<AES> and ChaCha20Poly1305
// through EncryptAndAuthenticate / DecryptAndVerify.
#include <crypto++/aes.h>
#include <crypto++/blake2.h>
#include <crypto++/chachapoly.h>
#include <crypto++/cryptlib.h>
#include <crypto++/gcm.h>
#include <crypto++/hmac.h>
#include <crypto++/modes.h>
#include <crypto++/osrng.h>
#include <crypto++/sha.h>
#include <crypto++/sha3.h>
#include <crypto++/sm3.h>
#include <crypto++/xed25519.h>

#include <cstdio>
#include <cstring>
#include <memory>

#include "../common/oneshot.h"

using namespace CryptoPP;

namespace {

// What a cell keeps between operations; deleted by cleanup.
struct State {
  virtual ~State() = default;
};
template <class T> struct Holder : State { T obj; };
template <class T> T &held(oneshot_cell *c) { return static_cast<Holder<T> *>(c->ctx)->obj; }

// Runs f, turning a Crypto++ exception into the cell's one-line error.
template <class F> int guard(oneshot_cell *c, F f) {
  try {
    return f();
  } catch (const std::exception &e) {
    return oneshot_fail(c, "%s", e.what());
  }
}

template <class H> int hash(oneshot_cell *c) {
  return guard(c, [&] {
    H().CalculateDigest(c->out, c->p.msg, c->p.msg_len);
    return 0;
  });
}

int hmac_setup(oneshot_cell *c) {
  return guard(c, [&] {
    auto *h = new Holder<HMAC<SHA256>>();
    c->ctx = h;
    h->obj.SetKey(c->p.key, c->p.key_len);
    return 0;
  });
}
int hmac(oneshot_cell *c) {
  return guard(c, [&] {
    auto &h = held<HMAC<SHA256>>(c);
    h.Update(c->p.msg, c->p.msg_len);
    h.Final(c->out);
    return 0;
  });
}

void cleanup(oneshot_cell *c) { delete static_cast<State *>(c->ctx); }

// ---- CBC and CTR: one cipher object per cell and direction, Resynchronize per
// message ----

// the encryption and the decryption object of a mode, as one state
template <class Mode> struct Both : State {
  typename Mode::Encryption enc;
  typename Mode::Decryption dec;
};
template <class Mode> int both_setup(oneshot_cell *c) {
  return guard(c, [&] {
    auto *b = new Both<Mode>();
    c->ctx = b;
    b->enc.SetKeyWithIV(c->p.key, c->p.key_len, c->p.iv, c->p.iv_len);
    b->dec.SetKeyWithIV(c->p.key, c->p.key_len, c->p.iv, c->p.iv_len);
    return 0;
  });
}
template <class Mode, bool decrypt> int both_run(oneshot_cell *c) {
  return guard(c, [&] {
    auto *b = static_cast<Both<Mode> *>(c->ctx);
    SymmetricCipher &m = decrypt ? static_cast<SymmetricCipher &>(b->dec) : b->enc;
    m.Resynchronize(c->p.iv, static_cast<int>(c->p.iv_len));
    m.ProcessData(c->out, c->p.msg, c->p.msg_len);
    return 0;
  });
}

// ---- AEADs: nonce and AAD per message ----

template <class Mode> int seal(oneshot_cell *c) {
  return guard(c, [&] {
    auto *b = static_cast<Both<Mode> *>(c->ctx);
    size_t n = c->p.msg_len;
    b->enc.EncryptAndAuthenticate(c->out, c->out + n, CB_TAG_LEN, c->p.iv,
                                  static_cast<int>(c->p.iv_len), c->p.aad, c->p.aad_len, c->p.msg,
                                  n);
    return 0;
  });
}
template <class Mode> int open(oneshot_cell *c) {
  return guard(c, [&] {
    auto *b = static_cast<Both<Mode> *>(c->ctx);
    size_t n = c->p.msg_len - CB_TAG_LEN;
    if (!b->dec.DecryptAndVerify(c->out, c->p.msg + n, CB_TAG_LEN, c->p.iv,
                                 static_cast<int>(c->p.iv_len), c->p.aad, c->p.aad_len, c->p.msg,
                                 n))
      return oneshot_fail(c, "tag mismatch"), CB_REJECTED;
    return 0;
  });
}

// ---- Ed25519 and X25519: raw 32-byte keys (the private key is the seed / scalar) ----

struct EdSigner : State {
  ed25519Signer signer;
  explicit EdSigner(const byte *seed) : signer(seed) {}
};

int ed_sign_setup(oneshot_cell *c) {
  return guard(c, [&] {
    if (c->p.priv_len == ed25519PrivateKey::SECRET_KEYLENGTH)
      c->ctx = new EdSigner(c->p.priv);
    return 0;
  });
}
int ed_sign(oneshot_cell *c) {
  if (c->ctx == nullptr)
    return oneshot_fail(c, "Ed25519 private key of %zu bytes", c->p.priv_len), CB_REJECTED;
  return guard(c, [&] {
    // Ed25519 signing is deterministic: the generator argument is never read
    static_cast<EdSigner *>(c->ctx)->signer.SignMessage(NullRNG(), c->p.msg, c->p.msg_len, c->out);
    return 0;
  });
}
int ed_verify(oneshot_cell *c) {
  if (c->p.pub_len != ed25519PublicKey::PUBLIC_KEYLENGTH || c->p.sig_len != 64)
    return oneshot_fail(c, "Ed25519 key or signature of the wrong length"), CB_REJECTED;
  return guard(c, [&] {
    ed25519Verifier v(c->p.pub);
    if (!v.VerifyMessage(c->p.msg, c->p.msg_len, c->p.sig, c->p.sig_len))
      return oneshot_fail(c, "signature does not verify"), CB_REJECTED;
    c->out[0] = 1;
    return 0;
  });
}
int x_derive(oneshot_cell *c) {
  if (c->p.priv_len != 32 || c->p.pub_len != 32)
    return oneshot_fail(c, "X25519 keys of %zu and %zu bytes", c->p.priv_len, c->p.pub_len),
           CB_REJECTED;
  return guard(c, [&] {
    if (!x25519().Agree(c->out, c->p.priv, c->p.pub, true)) // refuses small-order points
      return oneshot_fail(c, "x25519 Agree refused the peer key"), CB_REJECTED;
    return 0;
  });
}

// a key pair from Crypto++'s own generator (AutoSeededRandomPool)
int copy_out(uint8_t **buf, size_t *len, const byte *src, size_t n) {
  if (oneshot_alloc(buf, len, n) != 0)
    return -1;
  std::memcpy(*buf, src, n);
  return 0;
}
int ed25519_keypair(uint8_t **pub, size_t *pub_len, uint8_t **priv, size_t *priv_len, char *err,
                    size_t errlen) {
  try {
    AutoSeededRandomPool rng;
    byte seed[32];
    rng.GenerateBlock(seed, sizeof seed);
    ed25519Signer s(seed);
    const auto &k = static_cast<const ed25519PrivateKey &>(s.GetPrivateKey());
    return copy_out(priv, priv_len, seed, 32) ||
           copy_out(pub, pub_len, k.GetPublicKeyBytePtr(), 32);
  } catch (const std::exception &e) {
    std::snprintf(err, errlen, "%s", e.what());
    return -1;
  }
}
int x25519_keypair(uint8_t **pub, size_t *pub_len, uint8_t **priv, size_t *priv_len, char *err,
                   size_t errlen) {
  try {
    AutoSeededRandomPool rng;
    x25519 x;
    byte y[32], p[32];
    x.GeneratePrivateKey(rng, y);
    x.GeneratePublicKey(rng, y, p);
    return copy_out(priv, priv_len, y, 32) || copy_out(pub, pub_len, p, 32);
  } catch (const std::exception &e) {
    std::snprintf(err, errlen, "%s", e.what());
    return -1;
  }
}

const char *library_name() { return "Crypto++"; }
const char *library_version() {
  static char v[24];
  int n = LibraryVersion(); // e.g. 870
  std::snprintf(v, sizeof v, "%d.%d.%d", n / 100, n / 10 % 10, n % 10);
  return v;
}

} // namespace

#define HASH(name, H, size)                                                                        \
  { {name, {"hash"}}, 0, 0, 0, size, nullptr, {hash<H>}, nullptr }
#define CBC(name, key)                                                                             \
  {                                                                                                \
    {name, {"encrypt", "decrypt"}}, key, 16, 16, 0, both_setup<CBC_Mode<AES>>,                     \
        {both_run<CBC_Mode<AES>, false>, both_run<CBC_Mode<AES>, true>}, cleanup                   \
  }
#define CTR(name, key)                                                                             \
  {                                                                                                \
    {name, {"encrypt", "decrypt"}}, key, 16, 0, 0, both_setup<CTR_Mode<AES>>,                      \
        {both_run<CTR_Mode<AES>, false>, both_run<CTR_Mode<AES>, true>}, cleanup                   \
  }
#define AEAD(name, key, Mode)                                                                      \
  { {name, {"seal", "open"}}, key, 12, 0, 0, both_setup<Mode>, {seal<Mode>, open<Mode>}, cleanup }

const oneshot_alg oneshot_algs[] = {
    HASH("sha256", SHA256, 32),
    HASH("sha512", SHA512, 64),
    HASH("sha3-256", SHA3_256, 32),
    HASH("sha3-512", SHA3_512, 64),
    HASH("blake2b-512", BLAKE2b, 64),
    HASH("blake2s-256", BLAKE2s, 32),
    HASH("sm3", SM3, 32),
    {{"hmac-sha256", {"mac"}}, 0, 0, 0, 32, hmac_setup, {hmac}, cleanup},
    CBC("aes-128-cbc", 16),
    CBC("aes-256-cbc", 32),
    CTR("aes-128-ctr", 16),
    CTR("aes-256-ctr", 32),
    AEAD("aes-128-gcm", 16, GCM<AES>),
    AEAD("aes-256-gcm", 32, GCM<AES>),
    AEAD("chacha20-poly1305", 32, ChaCha20Poly1305),
    {{"ed25519", {"sign", "verify"}, 0, 1, 0},
     0,
     0,
     0,
     64,
     ed_sign_setup,
     {ed_sign, ed_verify},
     cleanup,
     0,
     0,
     ed25519_keypair},
    {{"x25519", {"derive"}, 0, 1, 0},
     0,
     0,
     0,
     32,
     nullptr,
     {x_derive},
     nullptr,
     0,
     0,
     x25519_keypair},
};
const size_t oneshot_nalgs = sizeof oneshot_algs / sizeof oneshot_algs[0];

static const cb_provider table =
    ONESHOT_TABLE("cryptopp", "cpp:cryptopp", "cpp", nullptr, library_name, library_version);

extern "C" CB_PROVIDER_EXPORT const cb_provider *cryptobench_provider(void) { return &table; }
