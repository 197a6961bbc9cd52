/* Public-key operations of cbdriver-botan (provider cpp:botan), Botan 2's C++ API (protocol.md,
 * version 2). The functions of ops_pk.h have C linkage and never let an exception out.
 *
 * The way a user of this API does each operation: PK_Signer / PK_Verifier (padding
 * "EMSA4(SHA-256,MGF1,32)" for RSA-PSS, "EMSA3(SHA-256)" for PKCS#1 v1.5, "EMSA1(SHA-256)" /
 * "EMSA1(SHA-384)" for ECDSA with DER_SEQUENCE signatures, "Pure" for Ed25519, "<identity>,SM3"
 * for SM2), PK_Key_Agreement("Raw"), PK_Encryptor_EME / PK_Decryptor_EME("OAEP(SHA-256)"), each
 * created once per cell; keys from X509::load_key, PKCS8::load_key, the key classes'
 * constructors. One AutoSeeded_RNG per process (what botan_rng_init(.., "user") gives the FFI).
 * Botan 2 has no Ed448, X448, ML-KEM or ML-DSA (only the round-3 Kyber and Dilithium, which are
 * not FIPS 203/204): not offered.
 */
#include "ops_botan_setup.h"
#include "ops_pk.h"
#include "pk_family.h"
#include <cryptobench/kit.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include <botan/asn1_obj.h>
#include <botan/auto_rng.h>
#include <botan/ber_dec.h>
#include <botan/bigint.h>
#include <botan/curve25519.h>
#include <botan/data_src.h>
#include <botan/ec_group.h>
#include <botan/ecdh.h>
#include <botan/ecdsa.h>
#include <botan/ed25519.h>
#include <botan/pkcs8.h>
#include <botan/pubkey.h>
#include <botan/rsa.h>
#include <botan/sm2.h>
#include <botan/x509_key.h>

namespace {

enum pkop { P_KEYGEN, P_SIGN, P_VERIFY, P_DERIVE, P_ENCRYPT, P_DECRYPT };
const char *const PKOP_NAMES[] = {"keygen", "sign", "verify", "derive", "encrypt", "decrypt"};

struct pk_def {
  const char *name;    /* protocol name */
  pk_fam f;            /* family */
  size_t bits;         /* RSA: modulus bits */
  const char *group;   /* EC: Botan's name of the curve */
  const char *padding; /* what PK_Signer / PK_Verifier / PK_Key_Agreement / PK_*_EME take */
  size_t len;          /* EC: field bytes; Ed25519 / X25519: raw key bytes */
};

const pk_def DEFS[] = {
    {"rsa-2048", F_RSA, 2048, nullptr, nullptr, 0},
    {"rsa-3072", F_RSA, 3072, nullptr, nullptr, 0},
    {"rsa-4096", F_RSA, 4096, nullptr, nullptr, 0},
    {"rsa-2048-pss", F_PSS, 2048, nullptr, "EMSA4(SHA-256,MGF1,32)", 0},
    {"rsa-3072-pss", F_PSS, 3072, nullptr, "EMSA4(SHA-256,MGF1,32)", 0},
    {"rsa-4096-pss", F_PSS, 4096, nullptr, "EMSA4(SHA-256,MGF1,32)", 0},
    {"rsa-2048-pkcs1", F_PKCS1, 2048, nullptr, "EMSA3(SHA-256)", 0},
    {"rsa-3072-pkcs1", F_PKCS1, 3072, nullptr, "EMSA3(SHA-256)", 0},
    {"rsa-4096-pkcs1", F_PKCS1, 4096, nullptr, "EMSA3(SHA-256)", 0},
    {"rsa-2048-oaep", F_OAEP, 2048, nullptr, "OAEP(SHA-256)", 0},
    {"rsa-3072-oaep", F_OAEP, 3072, nullptr, "OAEP(SHA-256)", 0},
    {"rsa-4096-oaep", F_OAEP, 4096, nullptr, "OAEP(SHA-256)", 0},
    {"ecdsa-p256", F_ECDSA, 0, "secp256r1", "EMSA1(SHA-256)", 32},
    {"ecdsa-p384", F_ECDSA, 0, "secp384r1", "EMSA1(SHA-384)", 48},
    {"ecdsa-secp256k1", F_ECDSA, 0, "secp256k1", "EMSA1(SHA-256)", 32},
    {"ecdh-p256", F_ECDH, 0, "secp256r1", "Raw", 32},
    {"ecdh-p384", F_ECDH, 0, "secp384r1", "Raw", 48},
    {"ecdh-secp256k1", F_ECDH, 0, "secp256k1", "Raw", 32},
    {"ed25519", F_EDDSA, 0, nullptr, "Pure", 32},
    {"x25519", F_XDH, 0, nullptr, "Raw", 32},
    /* the identity given explicitly: Botan 2 takes "" (no comma) as an empty identity */
    {"sm2", F_SM2, 0, "sm2p256v1", "1234567812345678,SM3", 32},
};
constexpr size_t NDEFS = sizeof DEFS / sizeof DEFS[0];

PK_FAMILY_OFFERED(f)

Botan::RandomNumberGenerator &rng() {
  static Botan::AutoSeeded_RNG r;
  return r;
}

bool is_ec(const pk_def *d) { return d->f == F_ECDSA || d->f == F_ECDH || d->f == F_SM2; }

Botan::Signature_Format sig_format(const pk_def *d) {
  return d->f == F_ECDSA || d->f == F_SM2 ? Botan::DER_SEQUENCE : Botan::IEEE_1363;
}

/* ---- keys ---- */

/* An EC key of the family's class (ECDSA, ECDH, SM2) on group with private value x. */
std::unique_ptr<Botan::Private_Key> ec_private(const pk_def *d, const Botan::EC_Group &group,
                                               const Botan::BigInt &x) {
  switch (d->f) {
  case F_ECDH:
    return std::unique_ptr<Botan::Private_Key>(new Botan::ECDH_PrivateKey(rng(), group, x));
  case F_SM2:
    return std::unique_ptr<Botan::Private_Key>(new Botan::SM2_PrivateKey(rng(), group, x));
  default:
    return std::unique_ptr<Botan::Private_Key>(new Botan::ECDSA_PrivateKey(rng(), group, x));
  }
}

/* A fresh key pair of the family (EC: on group). */
std::unique_ptr<Botan::Private_Key> generate(const pk_def *d, const Botan::EC_Group *group) {
  switch (d->f) {
  case F_RSA:
  case F_PSS:
  case F_PKCS1:
  case F_OAEP:
    return std::unique_ptr<Botan::Private_Key>(new Botan::RSA_PrivateKey(rng(), d->bits));
  case F_EDDSA:
    return std::unique_ptr<Botan::Private_Key>(new Botan::Ed25519_PrivateKey(rng()));
  case F_XDH:
    return std::unique_ptr<Botan::Private_Key>(new Botan::Curve25519_PrivateKey(rng()));
  default:
    return ec_private(d, *group, Botan::BigInt(0)); /* x = 0: Botan draws a random key */
  }
}

/* The private key in the protocol's encoding: PKCS#8 (RSA), the scalar (EC), raw (Ed/X). */
Botan::secure_vector<uint8_t> encode_private(const pk_def *d, const Botan::Private_Key &k) {
  if (is_rsa(d))
    return Botan::PKCS8::BER_encode(k);
  if (is_ec(d))
    return Botan::BigInt::encode_1363(dynamic_cast<const Botan::EC_PrivateKey &>(k).private_value(),
                                      d->len);
  if (d->f == F_EDDSA) {
    const auto &sk = dynamic_cast<const Botan::Ed25519_PrivateKey &>(k).get_private_key();
    return Botan::secure_vector<uint8_t>(sk.begin(), sk.begin() + 32); /* seed || public */
  }
  return dynamic_cast<const Botan::Curve25519_PrivateKey &>(k).get_x();
}

/* The public key in the protocol's encoding: SPKI DER (RSA; EC as id-ecPublicKey on the named
 * curve, whichever Botan class holds it), raw (Ed/X). */
std::vector<uint8_t> encode_public(const pk_def *d, const Botan::Private_Key &k) {
  if (is_ec(d)) {
    const auto &ec = dynamic_cast<const Botan::EC_PublicKey &>(k);
    return Botan::X509::BER_encode(Botan::ECDSA_PublicKey(ec.domain(), ec.public_point()));
  }
  if (d->f == F_EDDSA)
    return dynamic_cast<const Botan::Ed25519_PrivateKey &>(k).get_public_key();
  if (d->f == F_XDH)
    return dynamic_cast<const Botan::Curve25519_PrivateKey &>(k).public_value();
  return Botan::X509::BER_encode(k);
}

/* Whether the AlgorithmIdentifier of an EC SubjectPublicKeyInfo names its curve (RFC 5480);
 * explicit curve parameters are refused even when they describe the right curve. */
bool spki_named_curve(const uint8_t *b, size_t n) {
  Botan::AlgorithmIdentifier alg;
  std::vector<uint8_t> bits;
  Botan::BER_Decoder(b, n)
      .start_cons(Botan::SEQUENCE)
      .decode(alg)
      .decode(bits, Botan::BIT_STRING)
      .end_cons();
  const auto &par = alg.get_parameters();
  return !par.empty() && par[0] == 0x06; /* an OBJECT IDENTIFIER */
}

/* A DER SubjectPublicKeyInfo of the algorithm (RSA of its size, EC on its named curve), nothing
 * after it; null when refused. EC keys come back as the family's class. */
std::unique_ptr<Botan::Public_Key> load_spki(const pk_def *d, const Botan::EC_Group *group,
                                             const uint8_t *b, size_t n) {
  if (b == nullptr || n == 0)
    return nullptr;
  if (is_ec(d) && !spki_named_curve(b, n))
    return nullptr;
  Botan::DataSource_Memory src(b, n);
  std::unique_ptr<Botan::Public_Key> k(Botan::X509::load_key(src));
  if (k == nullptr || !src.end_of_data())
    return nullptr;
  if (is_rsa(d)) {
    auto *r = dynamic_cast<Botan::RSA_PublicKey *>(k.get());
    return r != nullptr && r->get_n().bits() == d->bits ? std::move(k) : nullptr;
  }
  auto *ec = dynamic_cast<Botan::EC_PublicKey *>(k.get());
  if (ec == nullptr || ec->domain() != *group)
    return nullptr;
  if (d->f == F_SM2)
    return std::unique_ptr<Botan::Public_Key>(
        new Botan::SM2_PublicKey(ec->domain(), ec->public_point()));
  if (d->f == F_ECDSA)
    return std::unique_ptr<Botan::Public_Key>(
        new Botan::ECDSA_PublicKey(ec->domain(), ec->public_point()));
  return k; /* ECDH: only its point is used */
}

/* A verification key: raw for Ed25519, SPKI for the others. */
std::unique_ptr<Botan::Public_Key> load_spki_or_raw(const pk_def *d, const Botan::EC_Group *group,
                                                    const uint8_t *b, size_t n) {
  if (d->f == F_EDDSA)
    return b != nullptr && n == d->len
               ? std::unique_ptr<Botan::Public_Key>(new Botan::Ed25519_PublicKey(b, n))
               : nullptr;
  return load_spki(d, group, b, n);
}

std::unique_ptr<Botan::Private_Key> load_private(const pk_def *d, const Botan::EC_Group *group,
                                                 const uint8_t *b, size_t n) {
  if (b == nullptr || n == 0)
    return nullptr;
  if (is_rsa(d)) {
    Botan::DataSource_Memory src(b, n);
    std::unique_ptr<Botan::Private_Key> k = Botan::PKCS8::load_key(src);
    auto *r = dynamic_cast<Botan::RSA_PrivateKey *>(k.get());
    return r != nullptr && src.end_of_data() && r->get_n().bits() == d->bits ? std::move(k)
                                                                             : nullptr;
  }
  if (is_ec(d)) {
    if (n != d->len)
      return nullptr;
    Botan::BigInt x(b, n);
    if (x == 0 || x >= group->get_order()) /* (x = 0 would make Botan draw a random key) */
      return nullptr;
    return ec_private(d, *group, x);
  }
  if (n != d->len)
    return nullptr;
  Botan::secure_vector<uint8_t> raw(b, b + n);
  if (d->f == F_EDDSA)
    return std::unique_ptr<Botan::Private_Key>(new Botan::Ed25519_PrivateKey(raw));
  return std::unique_ptr<Botan::Private_Key>(new Botan::Curve25519_PrivateKey(raw));
}

} // namespace

struct pk_cell {
  const pk_def *def = nullptr;
  pkop op = P_KEYGEN;
  std::unique_ptr<Botan::EC_Group> group;
  std::unique_ptr<Botan::Private_Key> priv;
  std::unique_ptr<Botan::Public_Key> pub;
  std::unique_ptr<Botan::PK_Signer> signer;
  std::unique_ptr<Botan::PK_Verifier> verifier;
  std::unique_ptr<Botan::PK_Key_Agreement> ka;
  std::unique_ptr<Botan::PK_Encryptor_EME> enc;
  std::unique_ptr<Botan::PK_Decryptor_EME> dec;
  std::vector<uint8_t> peer;   /* derive: the peer's public value (EC point, X25519 key) */
  std::vector<uint8_t> prefix; /* EC keygen: the SPKI header before the point */
  const uint8_t *msg = nullptr;
  size_t msg_len = 0;
  const uint8_t *sig = nullptr;
  size_t sig_len = 0;
  std::vector<uint8_t> out;
  Botan::secure_vector<uint8_t> sout;
  const uint8_t *out_ptr = nullptr;
  size_t out_len = 0;
  bool refused = false; /* the key material was refused: runs answer OPS_REJECTED */
  std::string err;
};

namespace {

void refuse(pk_cell *c, const std::string &why) {
  c->refused = true;
  c->err = why;
}

/* key = load(), which may throw or give nullptr when Botan does not take the bytes: then the cell
 * refuses with `why` (its runs answer rejected). Whether the key is there. */
template <class Key, class Load> bool accept(pk_cell *c, Key &key, const char *why, Load load) {
  try {
    key = load();
  } catch (const std::exception &e) {
    key.reset();
  }
  if (key == nullptr)
    refuse(c, why);
  return key != nullptr;
}

/* Everything outside the timed region; throws on a library error. 0, or -1 with err set. */
int prepare(pk_cell *c, const ops_params *p, char *err, size_t errlen) {
  const pk_def *d = c->def;
  if (d->group != nullptr)
    c->group.reset(new Botan::EC_Group(d->group));
  const Botan::EC_Group *g = c->group.get();
  if (pk_fam_no_seed_ctx(p, d->name, err, errlen) != 0)
    return -1;
  switch (c->op) {
  case P_KEYGEN:
    if (is_ec(d)) { /* the SPKI header of this curve, once (see run) */
      auto k = generate(d, g);
      std::vector<uint8_t> spki = encode_public(d, *k);
      std::vector<uint8_t> pt = dynamic_cast<const Botan::EC_PublicKey &>(*k).public_point().encode(
          Botan::PointGFp::UNCOMPRESSED);
      if (spki.size() <= pt.size() ||
          std::memcmp(spki.data() + spki.size() - pt.size(), pt.data(), pt.size()) != 0) {
        cb_kit_err(err, errlen, "EC key generation: the SPKI does not end with the point");
        return -1;
      }
      c->prefix.assign(spki.begin(), spki.end() - static_cast<long>(pt.size()));
    }
    return 0;
  case P_SIGN:
    if (accept(c, c->priv, "private key not accepted",
               [&] { return load_private(d, g, p->priv, p->priv_len); }))
      c->signer.reset(new Botan::PK_Signer(*c->priv, rng(), d->padding, sig_format(d)));
    return 0;
  case P_VERIFY:
    if (accept(c, c->pub, "public key not accepted",
               [&] { return load_spki_or_raw(d, g, p->pub, p->pub_len); }))
      c->verifier.reset(new Botan::PK_Verifier(*c->pub, d->padding, sig_format(d)));
    c->sig = p->sig != nullptr ? p->sig : reinterpret_cast<const uint8_t *>("");
    c->sig_len = p->sig != nullptr ? p->sig_len : 0;
    return 0;
  case P_DERIVE:
    try {
      c->priv = load_private(d, g, p->priv, p->priv_len);
      if (d->f == F_XDH) {
        if (p->pub != nullptr && p->pub_len == 32)
          c->peer.assign(p->pub, p->pub + 32);
      } else {
        auto peer = load_spki(d, g, p->pub, p->pub_len);
        if (peer != nullptr)
          c->peer = dynamic_cast<const Botan::EC_PublicKey &>(*peer).public_point().encode(
              Botan::PointGFp::UNCOMPRESSED);
      }
    } catch (const std::exception &e) {
      c->priv.reset();
    }
    if (c->priv == nullptr || c->peer.empty()) {
      refuse(c, c->priv == nullptr ? "private key not accepted" : "peer public key not accepted");
      return 0;
    }
    c->ka.reset(new Botan::PK_Key_Agreement(*c->priv, rng(), d->padding));
    return 0;
  case P_ENCRYPT:
    if (accept(c, c->pub, "public key not accepted",
               [&] { return load_spki(d, g, p->pub, p->pub_len); }))
      c->enc.reset(new Botan::PK_Encryptor_EME(*c->pub, rng(), d->padding));
    return 0;
  case P_DECRYPT:
    if (accept(c, c->priv, "private key not accepted",
               [&] { return load_private(d, g, p->priv, p->priv_len); }))
      c->dec.reset(new Botan::PK_Decryptor_EME(*c->priv, rng(), d->padding));
    return 0;
  }
  return -1;
}

} // namespace

/* ---- one operation each ---- */

namespace {

/* the cell's output: the bytes of v, a member of the cell */
template <class V> void set_out(pk_cell *c, const V &v) {
  c->out_ptr = v.data();
  c->out_len = v.size();
}

/* c->sout = secret() (derive, decrypt) as the output; 0, or OPS_REJECTED with the message when
 * Botan refuses the input (throws). Called directly in the timed switch, inlined: no pointer. */
template <class F> int secret_out(pk_cell *c, F secret) {
  try {
    c->sout = secret();
  } catch (const std::exception &e) {
    c->err = e.what();
    return OPS_REJECTED;
  }
  set_out(c, c->sout);
  return 0;
}

int run(pk_cell *c) {
  const pk_def *d = c->def;
  c->out_len = 0;
  switch (c->op) {
  case P_KEYGEN: {
    auto k = generate(d, c->group.get());
    if (is_ec(d)) { /* the point after the curve's SPKI header */
      std::vector<uint8_t> pt = dynamic_cast<const Botan::EC_PublicKey &>(*k).public_point().encode(
          Botan::PointGFp::UNCOMPRESSED);
      c->out.assign(c->prefix.begin(), c->prefix.end());
      c->out.insert(c->out.end(), pt.begin(), pt.end());
    } else {
      c->out = encode_public(d, *k);
    }
    set_out(c, c->out);
    break;
  }
  case P_SIGN:
    c->out = c->signer->sign_message(c->msg, c->msg_len, rng());
    set_out(c, c->out);
    break;
  case P_VERIFY: {
    bool ok = false;
    try {
      ok = c->verifier->verify_message(c->msg, c->msg_len, c->sig, c->sig_len);
    } catch (const std::exception &e) {
      c->err = e.what();
    }
    if (!ok) {
      if (c->err.empty())
        c->err = "the signature does not verify";
      return OPS_REJECTED;
    }
    c->out.assign(1, 1);
    set_out(c, c->out);
    break;
  }
  case P_DERIVE:
    if (secret_out(
            c, [c] { return c->ka->derive_key(0, c->peer.data(), c->peer.size()).bits_of(); }) != 0)
      return OPS_REJECTED;
    break;
  case P_ENCRYPT:
    c->out = c->enc->encrypt(c->msg, c->msg_len, rng());
    set_out(c, c->out);
    break;
  case P_DECRYPT:
    if (secret_out(c, [c] { return c->dec->decrypt(c->msg, c->msg_len); }) != 0)
      return OPS_REJECTED;
    break;
  }
  return c->out_len > 0 ? c->out_ptr[0] : 0;
}

/* Whether the library really has the algorithm: a key pair (not for RSA, always there and slow to
 * generate), and for signatures one that verifies, through the cells. */
bool probe(const pk_def *d) { return is_rsa(d) || pk_probe_keypair(d->name, d->f) != 0; }

/* A malloc'd copy (for the C side, which free()s it). */
uint8_t *copy_out(const uint8_t *b, size_t n, size_t *len) {
  auto *out = static_cast<uint8_t *>(malloc(n > 0 ? n : 1));
  if (out != nullptr) {
    std::memcpy(out, b, n);
    *len = n;
  }
  return out;
}

} // namespace

/* ---- the interface (C linkage) ---- */

extern "C" {

/* probe(d), false when Botan throws */
static bool probe_caught(const pk_def *d) {
  try {
    return probe(d);
  } catch (const std::exception &) {
    return false;
  }
}

PK_FAMILY_CATALOGUE(probe_caught(d), f)

size_t pk_catalogue(ops_alg *out, size_t max) { return pk_family_catalogue(out, max); }

size_t pk_notes(const char **notes, size_t max) {
  static const char *const text[] = {
      "public-key: PK_Signer / PK_Verifier / PK_Key_Agreement(\"Raw\") / PK_Encryptor_EME / "
      "PK_Decryptor_EME created once per cell with the cell's key (keys, peer keys, signatures "
      "and ciphertexts made outside the timed region); per operation sign_message, "
      "verify_message, derive_key, encrypt, decrypt with one AutoSeeded_RNG",
      "paddings: RSA-PSS \"EMSA4(SHA-256,MGF1,32)\", PKCS#1 v1.5 \"EMSA3(SHA-256)\", OAEP "
      "\"OAEP(SHA-256)\" (MGF1-SHA-256, empty label), ECDSA \"EMSA1(SHA-256)\" / "
      "\"EMSA1(SHA-384)\" with DER_SEQUENCE signatures (Botan 2 signs ECDSA with RFC 6979 "
      "nonces), Ed25519 \"Pure\", SM2 \"1234567812345678,SM3\" (Botan 2 reads a parameter "
      "without a comma as the identity, so the default one is spelt out)",
      "keygen: the key class's constructor (RSA_PrivateKey(rng, bits), ECDSA_PrivateKey(rng, "
      "group), SM2_PrivateKey, Ed25519_PrivateKey(rng), Curve25519_PrivateKey(rng)) and the "
      "public key in the protocol's encoding: X509::BER_encode for RSA, the raw key for "
      "Ed25519/X25519, for EC the uncompressed point after the SPKI header made once per cell",
      "not in Botan 2, so not offered: Ed448, X448, ML-KEM, ML-DSA (Botan 2 has only the "
      "round-3 Kyber and Dilithium, not FIPS 203/204)",
  };
  return cb_kit_notes(text, sizeof text / sizeof text[0], notes, max);
}

pk_cell *pk_cell_new(const ops_params *p, char *err, size_t errlen) {
  const pk_def *d = find_def(p->alg);
  int op = cb_kit_op_index(p->op, PKOP_NAMES, sizeof PKOP_NAMES / sizeof PKOP_NAMES[0]);
  if (cb_kit_pk_checks(p, d != nullptr ? d->name : nullptr,
                       d != nullptr && op >= 0 && pk_fam_allows(d->f, p->op), err, errlen) != 0)
    return nullptr;
  pk_cell *c = new (std::nothrow) pk_cell;
  if (c == nullptr) {
    cb_kit_err(err, errlen, "out of memory");
    return nullptr;
  }
  c->def = d;
  c->op = static_cast<pkop>(op);
  c->msg = p->msg != nullptr ? p->msg : reinterpret_cast<const uint8_t *>("");
  c->msg_len = p->msg != nullptr ? p->msg_len : 0;
  return botan_set_up(c, d->name, err, errlen, [&] { return prepare(c, p, err, errlen); });
}

int pk_cell_run(pk_cell *c) {
  if (c->refused)
    return OPS_REJECTED;
  try {
    return run(c);
  } catch (const std::exception &e) {
    c->err = e.what();
  }
  return OPS_FAIL;
}

const uint8_t *pk_cell_output(const pk_cell *c, size_t *len) {
  *len = c->out_len;
  return c->out_ptr;
}

const char *pk_cell_error(const pk_cell *c) {
  return c->err.empty() ? "operation failed" : c->err.c_str();
}

void pk_cell_free(pk_cell *c) { delete c; }

int pk_keypair(const char *alg, uint8_t **pub, size_t *pub_len, uint8_t **priv, size_t *priv_len,
               char *err, size_t errlen) {
  const pk_def *d =
      static_cast<const pk_def *>(pk_fam_keypair_def(find_def(alg), alg, pub, priv, err, errlen));
  if (d == nullptr)
    return -1;
  try {
    std::unique_ptr<Botan::EC_Group> g(d->group != nullptr ? new Botan::EC_Group(d->group)
                                                           : nullptr);
    auto k = generate(d, g.get());
    std::vector<uint8_t> pb = encode_public(d, *k);
    Botan::secure_vector<uint8_t> sb = encode_private(d, *k);
    *pub = copy_out(pb.data(), pb.size(), pub_len);
    *priv = copy_out(sb.data(), sb.size(), priv_len);
    if (*pub == nullptr || *priv == nullptr) {
      free(*pub);
      free(*priv);
      *pub = *priv = nullptr;
      cb_kit_err(err, errlen, "out of memory");
      return -1;
    }
  } catch (const std::exception &e) {
    cb_kit_err(err, errlen, "%s", e.what());
    return -1;
  }
  return 0;
}

} // extern "C"
