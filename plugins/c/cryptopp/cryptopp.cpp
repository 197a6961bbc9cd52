// cpp:cryptopp — Crypto++ 8.7 as a cryptobench plugin, in C++ (the cb_provider
// table with C linkage, exceptions never crossing it), through its documented
// API: HashTransformation:: CalculateDigest, HMAC<SHA256> (keyed once per cell;
// Final() leaves it keyed), CBC_Mode / CTR_Mode<AES> (keyed once, Resynchronize
// per message) and the authenticated ciphers GCM<AES> and ChaCha20Poly1305
// through EncryptAndAuthenticate / DecryptAndVerify.
#include <crypto++/aes.h>
#include <crypto++/blake2.h>
#include <crypto++/ccm.h>
#include <crypto++/chachapoly.h>
#include <crypto++/cryptlib.h>
#include <crypto++/dsa.h>
#include <crypto++/eccrypto.h>
#include <crypto++/filters.h>
#include <crypto++/gcm.h>
#include <crypto++/hkdf.h>
#include <crypto++/hmac.h>
#include <crypto++/modes.h>
#include <crypto++/oids.h>
#include <crypto++/osrng.h>
#include <crypto++/pssr.h>
#include <crypto++/rsa.h>
#include <crypto++/sha.h>
#include <crypto++/sha3.h>
#include <crypto++/sm3.h>
#include <crypto++/sm4.h>
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

// ECB has no IV: keyed once, never resynchronised
template <class Mode> int ecb_setup(oneshot_cell *c) {
  return guard(c, [&] {
    auto *b = new Both<Mode>();
    c->ctx = b;
    b->enc.SetKey(c->p.key, c->p.key_len);
    b->dec.SetKey(c->p.key, c->p.key_len);
    return 0;
  });
}
template <class Mode, bool decrypt> int ecb_run(oneshot_cell *c) {
  return guard(c, [&] {
    auto *b = static_cast<Both<Mode> *>(c->ctx);
    SymmetricCipher &m = decrypt ? static_cast<SymmetricCipher &>(b->dec) : b->enc;
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

struct EdVerifier : State {
  ed25519Verifier verifier;
  explicit EdVerifier(const byte *pub) : verifier(pub) {}
};

// the signer (op 0) or the verifier (op 1), keyed once per cell; none for a key of the wrong
// length (run() then answers rejected)
int ed_setup(oneshot_cell *c) {
  return guard(c, [&] {
    if (c->op == 0 && c->p.priv_len == ed25519PrivateKey::SECRET_KEYLENGTH)
      c->ctx = new EdSigner(c->p.priv);
    else if (c->op == 1 && c->p.pub_len == ed25519PublicKey::PUBLIC_KEYLENGTH)
      c->ctx = new EdVerifier(c->p.pub);
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
  if (c->ctx == nullptr || c->p.sig_len != 64)
    return oneshot_fail(c, "Ed25519 key or signature of the wrong length"), CB_REJECTED;
  return guard(c, [&] {
    if (!static_cast<EdVerifier *>(c->ctx)->verifier.VerifyMessage(c->p.msg, c->p.msg_len, c->p.sig,
                                                                   c->p.sig_len))
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

// ---- RSA (SubjectPublicKeyInfo / PKCS#8 DER) and ECDSA P-256 (SPKI / raw scalar, DER signatures)
// --

AutoSeededRandomPool &rng() { // PSS salts, OAEP seeds, blinding and key pairs
  static AutoSeededRandomPool pool;
  return pool;
}

template <class K> bool load(K &key, const uint8_t *der, size_t n) {
  try {
    ArraySource src(der, n, true);
    key.Load(src);
    return true;
  } catch (const std::exception &) {
    return false;
  }
}

// a signer and a verifier of one scheme (or an encryptor and a decryptor), keyed once per cell;
// ok is false when Crypto++ refused the key (run() then answers rejected)
template <class Private, class Public> struct Keyed : State {
  Private priv;
  Public pub;
  bool ok = false;
};

template <class Scheme> int rsa_setup(oneshot_cell *c) {
  return guard(c, [&] {
    auto *k = new Keyed<typename Scheme::Signer, typename Scheme::Verifier>();
    c->ctx = k;
    if (c->op == 0)
      k->ok = load(k->priv.AccessKey(), c->p.priv, c->p.priv_len);
    else
      k->ok = load(k->pub.AccessKey(), c->p.pub, c->p.pub_len);
    return 0;
  });
}
template <class Scheme> int rsa_sign(oneshot_cell *c) {
  auto *k = static_cast<Keyed<typename Scheme::Signer, typename Scheme::Verifier> *>(c->ctx);
  if (!k->ok)
    return oneshot_fail(c, "private key refused"), CB_REJECTED;
  return guard(c, [&] {
    c->out_len = k->priv.SignMessage(rng(), c->p.msg, c->p.msg_len, c->out);
    return 0;
  });
}
template <class Scheme> int rsa_verify(oneshot_cell *c) {
  auto *k = static_cast<Keyed<typename Scheme::Signer, typename Scheme::Verifier> *>(c->ctx);
  if (!k->ok || c->p.sig_len != k->pub.SignatureLength())
    return oneshot_fail(c, "key or signature length refused"), CB_REJECTED;
  return guard(c, [&] {
    if (!k->pub.VerifyMessage(c->p.msg, c->p.msg_len, c->p.sig, c->p.sig_len))
      return oneshot_fail(c, "signature does not verify"), CB_REJECTED;
    c->out[0] = 1;
    return 0;
  });
}

using OAEP256 = RSAES<OAEP<SHA256>>;
int oaep_setup(oneshot_cell *c) {
  return guard(c, [&] {
    auto *k = new Keyed<OAEP256::Decryptor, OAEP256::Encryptor>();
    c->ctx = k;
    if (c->op == 0)
      k->ok = load(k->pub.AccessKey(), c->p.pub, c->p.pub_len);
    else
      k->ok = load(k->priv.AccessKey(), c->p.priv, c->p.priv_len);
    return 0;
  });
}
int oaep_encrypt(oneshot_cell *c) {
  auto *k = static_cast<Keyed<OAEP256::Decryptor, OAEP256::Encryptor> *>(c->ctx);
  if (!k->ok || c->p.msg_len > k->pub.FixedMaxPlaintextLength())
    return oneshot_fail(c, "key or message length refused"), CB_REJECTED;
  return guard(c, [&] {
    k->pub.Encrypt(rng(), c->p.msg, c->p.msg_len, c->out);
    c->out_len = k->pub.CiphertextLength(c->p.msg_len);
    return 0;
  });
}
int oaep_decrypt(oneshot_cell *c) {
  auto *k = static_cast<Keyed<OAEP256::Decryptor, OAEP256::Encryptor> *>(c->ctx);
  if (!k->ok || c->p.msg_len != k->priv.FixedCiphertextLength())
    return oneshot_fail(c, "key or ciphertext length refused"), CB_REJECTED;
  try {
    DecodingResult r = k->priv.Decrypt(rng(), c->p.msg, c->p.msg_len, c->out);
    if (!r.isValidCoding)
      return oneshot_fail(c, "OAEP decoding failed"), CB_REJECTED;
    c->out_len = r.messageLength;
    return 0;
  } catch (const std::exception &e) { // a ciphertext >= n ends in Crypto++'s fault check
    return oneshot_fail(c, "%s", e.what()), CB_REJECTED;
  }
}

// an RSA key pair of arg bits from Crypto++'s generator, as SPKI and PKCS#8 DER
template <unsigned bits>
int rsa_keypair(uint8_t **pub, size_t *pub_len, uint8_t **priv, size_t *priv_len, char *err,
                size_t errlen) {
  try {
    RSA::PrivateKey key;
    key.GenerateRandomWithKeySize(rng(), bits);
    std::string p8, spki;
    StringSink s8(p8), ss(spki);
    key.Save(s8);
    RSA::PublicKey(key).Save(ss);
    return copy_out(priv, priv_len, reinterpret_cast<const byte *>(p8.data()), p8.size()) ||
           copy_out(pub, pub_len, reinterpret_cast<const byte *>(spki.data()), spki.size());
  } catch (const std::exception &e) {
    std::snprintf(err, errlen, "%s", e.what());
    return -1;
  }
}

// The curves by OID; Curve::Hash is ECDSA's hash (SHA-384 on P-384, SHA-256 on the others)
struct P256 {
  static OID oid() { return ASN1::secp256r1(); }
  using Hash = SHA256;
};
struct P384 {
  static OID oid() { return ASN1::secp384r1(); }
  using Hash = SHA384;
};
struct K256 {
  static OID oid() { return ASN1::secp256k1(); }
  using Hash = SHA256;
};
template <class Curve> using Ecdsa = ECDSA<ECP, typename Curve::Hash>;
template <class Curve>
using EcKeyed = Keyed<typename Ecdsa<Curve>::Signer, typename Ecdsa<Curve>::Verifier>;

template <class Curve> size_t field_len() {
  return DL_GroupParameters_EC<ECP>(Curve::oid()).GetCurve().GetField().MaxElementByteLength();
}
// an EC cell's state: the keys, and what the operations need of the curve, made at set-up (building
// the group from its OID is far slower than one ECDH)
template <class Curve> struct EcState : EcKeyed<Curve> {
  size_t field = field_len<Curve>(); // the field size in bytes
  ECDH<ECP>::Domain dh{Curve::oid()};
  byte scalar[66], peer[133]; // ECDH: the private scalar and the peer's uncompressed point
};
// the key material of a sign, verify or derive cell: the scalar (op 0 of sign, derive) and the
// SubjectPublicKeyInfo (verify, derive's peer), on this curve and validated by Crypto++
template <class Curve> int ec_setup(oneshot_cell *c) {
  return guard(c, [&] {
    auto *k = new EcState<Curve>();
    c->ctx = k;
    size_t f = k->field;
    bool derive = std::strcmp(c->p.op, "derive") == 0;
    k->ok = true;
    if (c->op == 0 || derive) {
      k->ok = c->p.priv_len == f;
      if (k->ok) {
        k->priv.AccessKey().Initialize(Curve::oid(), Integer(c->p.priv, f));
        k->ok = k->priv.GetKey().Validate(rng(), 1);
      }
    }
    if (k->ok && (c->op == 1 || derive)) {
      const DL_GroupParameters_EC<ECP> want(Curve::oid());
      k->ok = load(k->pub.AccessKey(), c->p.pub, c->p.pub_len);
      const auto &g = k->pub.GetKey().GetGroupParameters();
      k->ok = k->ok && g.GetSubgroupOrder() == want.GetSubgroupOrder() &&
              g.GetCurve().GetField().GetModulus() == want.GetCurve().GetField().GetModulus() &&
              k->pub.GetKey().Validate(rng(), 3);
    }
    if (k->ok && derive) {
      k->priv.GetKey().GetPrivateExponent().Encode(k->scalar, k->dh.PrivateKeyLength());
      k->pub.GetKey().GetGroupParameters().GetCurve().EncodePoint(
          k->peer, k->pub.GetKey().GetPublicElement(), false);
    }
    return 0;
  });
}
template <class Curve>
int ecdsa_sign(oneshot_cell *c) { // r || s from Crypto++, DER for the protocol
  auto *k = static_cast<EcState<Curve> *>(c->ctx);
  if (!k->ok)
    return oneshot_fail(c, "private key refused"), CB_REJECTED;
  return guard(c, [&] {
    byte rs[96];
    size_t n = k->priv.SignMessage(rng(), c->p.msg, c->p.msg_len, rs);
    c->out_len = DSAConvertSignatureFormat(c->out, c->def->out_len, DSA_DER, rs, n, DSA_P1363);
    return 0;
  });
}
template <class Curve> int ecdsa_verify(oneshot_cell *c) {
  auto *k = static_cast<EcState<Curve> *>(c->ctx);
  if (!k->ok)
    return oneshot_fail(c, "public key refused"), CB_REJECTED;
  return guard(c, [&] {
    byte rs[96];
    size_t want = 2 * k->field, n = 0;
    try {
      n = DSAConvertSignatureFormat(rs, want, DSA_P1363, c->p.sig, c->p.sig_len, DSA_DER);
    } catch (const std::exception &) {
      n = 0; // not a DER SEQUENCE of two integers
    }
    if (n != want || !k->pub.VerifyMessage(c->p.msg, c->p.msg_len, rs, n))
      return oneshot_fail(c, "signature does not verify"), CB_REJECTED;
    c->out[0] = 1;
    return 0;
  });
}
// ECDH: ECDH<ECP>::Domain::Agree on the scalar and the peer's point, encoded at set-up
template <class Curve> int ecdh_derive(oneshot_cell *c) {
  auto *k = static_cast<EcState<Curve> *>(c->ctx);
  if (!k->ok)
    return oneshot_fail(c, "key material refused"), CB_REJECTED;
  return guard(c, [&] {
    if (!k->dh.Agree(c->out, k->scalar, k->peer, true))
      return oneshot_fail(c, "ECDH Agree refused the peer key"), CB_REJECTED;
    c->out_len = k->field;
    return 0;
  });
}
template <class Curve>
int ec_keypair(uint8_t **pub, size_t *pub_len, uint8_t **priv, size_t *priv_len, char *err,
               size_t errlen) {
  try {
    typename Ecdsa<Curve>::PrivateKey key;
    key.Initialize(rng(), Curve::oid());
    typename Ecdsa<Curve>::PublicKey pk;
    key.MakePublicKey(pk);
    std::string spki;
    StringSink ss(spki);
    pk.Save(ss);
    byte d[66];
    size_t f = field_len<Curve>();
    key.GetPrivateExponent().Encode(d, f);
    return copy_out(priv, priv_len, d, f) ||
           copy_out(pub, pub_len, reinterpret_cast<const byte *>(spki.data()), spki.size());
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
#define ECB(name, key, Cipher)                                                                     \
  {                                                                                                \
    {name, {"encrypt", "decrypt"}}, key, 0, 16, 0, ecb_setup<ECB_Mode<Cipher>>,                    \
        {ecb_run<ECB_Mode<Cipher>, false>, ecb_run<ECB_Mode<Cipher>, true>}, cleanup               \
  }
#define MODE(name, key, block, Mode)                                                               \
  {                                                                                                \
    {name, {"encrypt", "decrypt"}}, key, 16, block, 0, both_setup<Mode>,                           \
        {both_run<Mode, false>, both_run<Mode, true>}, cleanup                                     \
  }
#define AEAD_IV(name, key, iv, Mode)                                                               \
  { {name, {"seal", "open"}}, key, iv, 0, 0, both_setup<Mode>, {seal<Mode>, open<Mode>}, cleanup }
#define AEAD(name, key, Mode)                                                                      \
  { {name, {"seal", "open"}}, key, 12, 0, 0, both_setup<Mode>, {seal<Mode>, open<Mode>}, cleanup }

using AES_CCM16 = CCM<AES, 16>;    // a 16-byte tag
using PSS256 = RSASS<PSS, SHA256>; // salt = the digest length (32), MGF1 with SHA-256
using PKCS1_256 = RSASS<PKCS1v15, SHA256>;
#define ECDSA_(name, Curve)                                                                        \
  {                                                                                                \
    {name, {"sign", "verify"}, 0, 1, 0}, 0, 0, 0, 120, ec_setup<Curve>,                            \
        {ecdsa_sign<Curve>, ecdsa_verify<Curve>}, cleanup, 0, 0, ec_keypair<Curve>                 \
  }
#define ECDH_(name, Curve)                                                                         \
  {                                                                                                \
    {name, {"derive"}, 0, 1, 0}, 0, 0, 0, 48, ec_setup<Curve>, {ecdh_derive<Curve>}, cleanup, 0,   \
        0, ec_keypair<Curve>                                                                       \
  }
#define RSA_SIG(name, Scheme, bits)                                                                \
  {                                                                                                \
    {name, {"sign", "verify"}, 0, 1, 0}, 0, 0, 0, 512, rsa_setup<Scheme>,                          \
        {rsa_sign<Scheme>, rsa_verify<Scheme>}, cleanup, 0, 0, rsa_keypair<bits>                   \
  }
#define RSA_OAEP(name, bits)                                                                       \
  {                                                                                                \
    {name, {"encrypt", "decrypt"}, 0, 1, 0}, 0, 0, 0, 512, oaep_setup,                             \
        {oaep_encrypt, oaep_decrypt}, cleanup, 0, 0, rsa_keypair<bits>                             \
  }

// HKDF-SHA256: IKM = msg, salt = key, info = iv
static int hkdf(oneshot_cell *c) {
  if (c->out_len > ONESHOT_HKDF_MAX)
    return oneshot_fail(c, "HKDF output of %zu bytes (at most 8160)", c->out_len), CB_REJECTED;
  return guard(c, [&] {
    HKDF<SHA256>().DeriveKey(c->out, c->out_len, c->p.msg, c->p.msg_len, c->p.key, c->p.key_len,
                             c->p.iv, c->p.iv_len);
    return 0;
  });
}

const oneshot_alg oneshot_algs[] = {
    ONESHOT_HASHES(HASH, SHA256, SHA512, SHA3_256, SHA3_512, BLAKE2b, BLAKE2s),
    HASH("sm3", SM3, 32),
    ONESHOT_HMAC_SHA256(hmac_setup, hmac, cleanup),
    ONESHOT_HKDF("hkdf-sha256", hkdf),
    CBC("aes-128-cbc", 16),
    CBC("aes-256-cbc", 32),
    CTR("aes-128-ctr", 16),
    CTR("aes-256-ctr", 32),
    AEAD("aes-128-gcm", 16, GCM<AES>),
    AEAD("aes-256-gcm", 32, GCM<AES>),
    AEAD("chacha20-poly1305", 32, ChaCha20Poly1305),
    AEAD("aes-128-ccm", 16, AES_CCM16),
    AEAD("aes-256-ccm", 32, AES_CCM16),
    AEAD_IV("xchacha20-poly1305", 32, 24, XChaCha20Poly1305),
    ECB("aes-128-ecb", 16, AES),
    ECB("aes-256-ecb", 32, AES),
    ECB("sm4-ecb", 16, SM4),
    MODE("sm4-cbc", 16, 16, CBC_Mode<SM4>),
    MODE("sm4-ctr", 16, 0, CTR_Mode<SM4>),
    ONESHOT_ED25519(ed_setup, cleanup, 0, ed25519_keypair),
    ONESHOT_X25519(nullptr, nullptr, 0, x25519_keypair),
    ECDSA_("ecdsa-p256", P256),
    ECDSA_("ecdsa-p384", P384),
    ECDSA_("ecdsa-secp256k1", K256),
    ECDH_("ecdh-p256", P256),
    ECDH_("ecdh-p384", P384),
    ECDH_("ecdh-secp256k1", K256),
    RSA_SIG("rsa-2048-pss", PSS256, 2048),
    RSA_SIG("rsa-3072-pss", PSS256, 3072),
    RSA_SIG("rsa-4096-pss", PSS256, 4096),
    RSA_SIG("rsa-2048-pkcs1", PKCS1_256, 2048),
    RSA_SIG("rsa-3072-pkcs1", PKCS1_256, 3072),
    RSA_SIG("rsa-4096-pkcs1", PKCS1_256, 4096),
    RSA_OAEP("rsa-2048-oaep", 2048),
    RSA_OAEP("rsa-3072-oaep", 3072),
    RSA_OAEP("rsa-4096-oaep", 4096),
};
const size_t oneshot_nalgs = sizeof oneshot_algs / sizeof oneshot_algs[0];

static const cb_provider table =
    ONESHOT_TABLE("cryptopp", "cpp:cryptopp", "cpp", nullptr, library_name, library_version);

extern "C" CB_PROVIDER_EXPORT const cb_provider *cryptobench_provider(void) { return &table; }
