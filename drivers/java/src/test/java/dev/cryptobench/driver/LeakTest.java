package dev.cryptobench.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/**
 * The leak request on public-key algorithms (protocol.md § leak): each measurement's keys are
 * imported before the first is timed ({@link Provider.Preparer}); a valid input comes back ok, an
 * RSA-OAEP ciphertext with a bit flipped comes back rejected (docs/leak.md, class padding).
 */
class LeakTest {
  private static JsonNode ask(Protocol d, String line) throws Exception {
    return BenchTest.doBench(d, line);
  }

  /** {public, private} from the provider's own generator. */
  private static String[] keypair(Protocol d, String alg) throws Exception {
    JsonNode kp = ask(d, "{\"cmd\":\"keypair\",\"alg\":\"" + alg + "\"}");
    return new String[] {kp.path("public").asText(), kp.path("private").asText()};
  }

  private static String input(String[] kp, String msg) {
    return String.format(
        "{\"private\":\"%s\",\"public\":\"%s\",\"msg\":\"%s\"}", kp[1], kp[0], msg);
  }

  private static JsonNode leak(Protocol d, String alg, String op, String order, String... inputs)
      throws Exception {
    return ask(
        d,
        String.format(
            "{\"cmd\":\"leak\",\"alg\":\"%s\",\"op\":\"%s\",\"order\":%s,\"inputs\":[%s]}",
            alg, op, order, String.join(",", inputs)));
  }

  @Test
  void signAndDeriveArePreparedAndTimed() throws Exception {
    for (String id : new String[] {"java:jca", "java:bouncycastle"}) {
      Protocol d = BenchTest.driver(id);
      for (String[] t :
          new String[][] {
            {"ecdsa-p256", "sign", "00"}, {"x25519", "derive", ""}, {"ed25519", "sign", "00"}
          }) {
        String[] kp = keypair(d, t[0]);
        String[] peer = keypair(d, t[0]);
        String[] keys = t[1].equals("derive") ? new String[] {peer[0], kp[1]} : kp;
        JsonNode r = leak(d, t[0], t[1], "[0,0,0]", input(keys, t[2]));
        assertTrue(r.path("ok").asBoolean(), id + " " + t[0] + ": " + r);
        assertEquals(3, r.path("times").size());
        r.path("times").forEach(x -> assertTrue(x.asLong() > 0, id + " " + t[0] + ": " + r));
        assertEquals("[\"ok\"]", r.path("outcomes").toString(), id + " " + t[0]);
        JsonNode bad = leak(d, t[0], t[1], "[0]", input(new String[] {keys[0], "00"}, t[2]));
        assertTrue(
            bad.path("error").asText().startsWith("input 0: "), id + " " + t[0] + ": " + bad);
      }
    }
  }

  @Test
  void aMacIsVerifiedAndSecretsComparedInConstantTime() throws Exception {
    for (String id : new String[] {"java:jca", "java:bouncycastle"}) {
      Protocol d = BenchTest.driver(id);
      String key = "0b".repeat(32);
      JsonNode mac =
          ask(
              d,
              "{\"cmd\":\"verify\",\"alg\":\"hmac-sha256\",\"cases\":[{\"id\":\"0\",\"op\":\"mac\","
                  + "\"key\":\""
                  + key
                  + "\",\"msg\":\"4869\"}]}");
      String tag = mac.path("results").get(0).path("out").asText();
      String wrong = (tag.startsWith("00") ? "01" : "00") + tag.substring(2);
      String in = "{\"key\":\"" + key + "\",\"msg\":\"4869\",\"sig\":\"%s\"}";
      JsonNode r =
          leak(
              d,
              "hmac-sha256",
              "verify",
              "[0,1,1]",
              String.format(in, tag),
              String.format(in, wrong));
      assertEquals("[\"ok\",\"rejected\"]", r.path("outcomes").toString(), id + ": " + r);
      r =
          leak(
              d,
              "hmac-sha256",
              "compare",
              "[1,0]",
              "{\"msg\":\"0011\",\"sig\":\"0011\"}",
              "{\"msg\":\"0011\",\"sig\":\"0111\"}");
      assertEquals("[\"ok\",\"rejected\"]", r.path("outcomes").toString(), id + ": " + r);
      r = leak(d, "hmac-sha256", "compare", "[0]", "{\"msg\":\"00\",\"sig\":\"0011\"}");
      assertTrue(r.path("error").asText().startsWith("input 0: "), id + ": " + r);
    }
  }

  @Test
  void anOaepCiphertextWithABitFlippedIsRejectedInsideTheCall() throws Exception {
    Protocol d = BenchTest.driver("java:jca");
    String[] kp = keypair(d, "rsa-2048-oaep");
    JsonNode enc =
        ask(
            d,
            "{\"cmd\":\"verify\",\"alg\":\"rsa-2048-oaep\",\"cases\":[{\"id\":\"0\",\"op\":\"encrypt\","
                + "\"public\":\""
                + kp[0]
                + "\",\"msg\":\"0011\"}]}");
    String ct = enc.path("results").get(0).path("out").asText();
    int last = Integer.parseInt(ct.substring(ct.length() - 2), 16) ^ 1;
    String flipped = ct.substring(0, ct.length() - 2) + String.format("%02x", last);
    JsonNode r =
        leak(d, "rsa-2048-oaep", "decrypt", "[1,0,1,0]", input(kp, ct), input(kp, flipped));
    assertTrue(r.path("ok").asBoolean(), r.toString());
    assertEquals("[\"ok\",\"rejected\"]", r.path("outcomes").toString());
  }
}
