package dev.cryptobench.driver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;

/**
 * The leak request (protocol version 5, protocol.md § leak): single operations timed one call at a
 * time for the orchestrator's dudect-style check, each measurement from its own decoded copy of its
 * input.
 *
 * <p>Symmetric algorithms: their case executor makes the cipher object and performs one operation,
 * as a bench cell's message does (Cipher.init with the key is inside the call, the same for both
 * classes of a tag or plaintext check). Public-key algorithms: the algorithm's {@link
 * Provider.Preparer} parses and imports each measurement's keys and initialises the operation
 * object before the first measurement, as the C driver does, and the timed call is the private-key
 * operation alone (Signature.sign, KeyAgreement.generateSecret, Cipher.doFinal, a KEM's
 * decapsulation); one without a preparer answers {@code not offered}.
 *
 * <p>A MAC's leak-only operations: {@code verify} computes the MAC of the input's key and msg
 * (Mac.init and doFinal, as a symmetric check's call) and compares it with its {@code sig} through
 * {@link MessageDigest#isEqual}, the JDK's constant-time comparison: the JCA has no MAC
 * verification, so this is how a JCA user of either provider verifies a tag; {@code compare} is
 * that comparison alone of msg with sig. A wrong tag or unequal secrets: rejected.
 */
final class Leak {
  private Leak() {}

  static ObjectNode leak(Provider.Alg a, JsonNode req) throws Exception {
    String op = Protocol.text(req, "op");
    boolean macOnly = a.offers("mac") && (op.equals("verify") || op.equals("compare"));
    if (!a.offers(op) && !macOnly) {
      throw new Protocol.BadRequest("not offered: " + a.name() + " \"" + op + "\"");
    }
    if (a.publicKey() && a.prepare() == null) {
      throw new Protocol.BadRequest(
          "not offered: " + a.name() + " " + op + ": no preparation of its keys outside the call");
    }
    List<Protocol.RawCase> inputs = Protocol.cases(req, "inputs");
    JsonNode order = req.get("order");
    if (inputs.isEmpty() || order == null || !order.isArray() || order.isEmpty()) {
      throw new Protocol.BadRequest("fields inputs and order must be non-empty arrays");
    }
    List<Provider.Case> cases = new ArrayList<>(order.size());
    int[] index = new int[order.size()];
    for (int i = 0; i < order.size(); i++) {
      JsonNode k = order.get(i);
      if (!k.canConvertToInt()
          || !k.isIntegralNumber()
          || k.asInt() < 0
          || k.asInt() >= inputs.size()) {
        throw new Protocol.BadRequest(
            "order[" + i + "] is not an index into inputs (0 .. " + (inputs.size() - 1) + ")");
      }
      index[i] = k.asInt();
      Protocol.RawCase rc = inputs.get(index[i]);
      try {
        cases.add(
            new Protocol.RawCase(
                    rc.id(),
                    macOnly ? "mac" : op,
                    rc.key(),
                    rc.iv(),
                    rc.aad(),
                    rc.msg(),
                    rc.counter(),
                    rc.pub(),
                    rc.priv(),
                    rc.sig(),
                    rc.seed(),
                    rc.m(),
                    rc.ctx(),
                    rc.deterministic())
                .decode());
      } catch (RuntimeException e) {
        throw new Protocol.BadRequest("input " + index[i] + ": " + Protocol.describe(e));
      }
    }
    if (macOnly) {
      for (int i = 0; i < cases.size(); i++) {
        if (op.equals("compare") && cases.get(i).msg().length != cases.get(i).sig().length) {
          throw new Protocol.BadRequest("input " + index[i] + ": msg and sig differ in length");
        }
      }
    }
    Provider.Prepared[] ready = null;
    if (a.publicKey()) { // every key imported before the first measurement, as bench cells are
      ready = new Provider.Prepared[cases.size()];
      for (int i = 0; i < ready.length; i++) {
        try {
          ready[i] = a.prepare().prepare(cases.get(i));
        } catch (Provider.Rejected e) {
          throw new Protocol.BadRequest("input " + index[i] + ": the library refused its key");
        } catch (Exception e) {
          throw new Protocol.BadRequest("input " + index[i] + ": " + Protocol.describe(e));
        }
      }
    }
    long[] times = new long[cases.size()];
    boolean[] refused = new boolean[cases.size()];
    long sink = 0;
    for (int i = 0; i < cases.size(); i++) {
      long t0 = System.nanoTime();
      try {
        Provider.Case c = cases.get(i);
        if (macOnly) {
          byte[] mine = op.equals("verify") ? a.exec().run(c) : c.msg();
          refused[i] = !MessageDigest.isEqual(mine, c.sig());
        } else {
          byte[] out = ready != null ? ready[i].run() : a.exec().run(c);
          sink += out.length > 0 ? out[0] : 0;
        }
      } catch (Provider.Rejected e) {
        refused[i] = true;
      }
      times[i] = System.nanoTime() - t0;
    }
    ObjectNode r = Protocol.ok();
    r.put("counter", "clock");
    ArrayNode t = r.putArray("times");
    for (long x : times) {
      t.add(x);
    }
    String[] outcomes = new String[inputs.size()];
    java.util.Arrays.fill(outcomes, "unused");
    for (int i = 0; i < index.length; i++) {
      if (outcomes[index[i]].equals("unused")) {
        outcomes[index[i]] = refused[i] ? "rejected" : "ok";
      }
    }
    ArrayNode o = r.putArray("outcomes");
    for (String x : outcomes) {
      o.add(x);
    }
    r.put("sink", sink);
    return r;
  }
}
