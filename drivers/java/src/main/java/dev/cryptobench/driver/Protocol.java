package dev.cryptobench.driver;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Protocol version 2 (docs/protocol.md): decoding requests, encoding responses, and turning any
 * error into {"ok":false,"error":...}.
 */
final class Protocol {
  /** The highest version this driver implements (hello answers with it). */
  static final int VERSION = 5;

  /** verify requests carry several MB of hex in one string: no length limit on strings. */
  private static final ObjectMapper JSON =
      JsonMapper.builder(
              JsonFactory.builder()
                  .streamReadConstraints(
                      StreamReadConstraints.builder().maxStringLength(Integer.MAX_VALUE).build())
                  .build())
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private Protocol() {}

  /** A request the driver cannot serve as asked; the message becomes the error response. */
  static final class BadRequest extends Exception {
    private static final long serialVersionUID = 1L;

    BadRequest(String message) {
      super(message);
    }
  }

  /**
   * A verify case as it arrives (hex strings), decoded per case so one bad case stays one. The
   * public-key fields (version 2): pub, priv, sig, seed ("" when absent), m and ctx (null when
   * absent), deterministic.
   */
  record RawCase(
      String id,
      String op,
      String key,
      String iv,
      String aad,
      String msg,
      Long counter,
      String pub,
      String priv,
      String sig,
      String seed,
      String m,
      String ctx,
      boolean deterministic) {
    /** A symmetric case. */
    RawCase(String id, String op, String key, String iv, String aad, String msg, Long counter) {
      this(id, op, key, iv, aad, msg, counter, "", "", "", "", null, null, false);
    }

    Provider.Case decode() {
      if (counter != null && (counter < 0 || counter > 0xffffffffL)) {
        throw new IllegalArgumentException("counter " + counter + " does not fit 32 bits");
      }
      return new Provider.Case(
          id,
          op,
          Input.unhex("key", key),
          Input.unhex("iv", iv),
          Input.unhex("aad", aad),
          Input.unhex("msg", msg),
          counter == null ? 0 : counter,
          Input.unhex("public", pub),
          Input.unhex("private", priv),
          Input.unhex("sig", sig),
          Input.unhex("seed", seed),
          m == null ? null : Input.unhex("m", m),
          ctx == null ? null : Input.unhex("ctx", ctx),
          deterministic);
    }
  }

  /** Parses one request line: a JSON object with a string "cmd". */
  static ObjectNode parse(String line) throws BadRequest {
    JsonNode n;
    try {
      n = JSON.readTree(line);
    } catch (JsonProcessingException e) {
      throw new BadRequest("cannot parse request: " + e.getOriginalMessage());
    }
    if (!(n instanceof ObjectNode o)) {
      throw new BadRequest("cannot parse request: not a JSON object");
    }
    JsonNode cmd = o.get("cmd");
    if (cmd == null || cmd.isNull() || (cmd.isTextual() && cmd.asText().isEmpty())) {
      throw new BadRequest("request has no \"cmd\"");
    }
    if (!cmd.isTextual()) {
      throw new BadRequest("\"cmd\" must be a string");
    }
    return o;
  }

  /** A string field; "" when absent or null. */
  static String text(JsonNode req, String field) throws BadRequest {
    JsonNode v = req.get(field);
    if (v == null || v.isNull()) {
      return "";
    }
    if (!v.isTextual()) {
      throw new BadRequest("\"" + field + "\" must be a string");
    }
    return v.asText();
  }

  /** An integer field; null when absent or null. */
  static Long integer(JsonNode req, String field) throws BadRequest {
    JsonNode v = req.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isIntegralNumber() || !v.canConvertToLong()) {
      throw new BadRequest("\"" + field + "\" must be an integer");
    }
    return v.asLong();
  }

  /** A string field that may be absent (null) as opposed to empty. */
  static String optionalText(JsonNode req, String field) throws BadRequest {
    JsonNode v = req.get(field);
    return v == null || v.isNull() ? null : text(req, field);
  }

  /** A boolean field; false when absent or null. */
  static boolean bool(JsonNode req, String field) throws BadRequest {
    JsonNode v = req.get(field);
    if (v == null || v.isNull()) {
      return false;
    }
    if (!v.isBoolean()) {
      throw new BadRequest("\"" + field + "\" must be true or false");
    }
    return v.asBoolean();
  }

  static long integer(JsonNode req, String field, long absent) throws BadRequest {
    Long v = integer(req, field);
    return v == null ? absent : v;
  }

  /** The "cases" of a verify request. */
  static List<RawCase> cases(JsonNode req) throws BadRequest {
    return cases(req, "cases");
  }

  /** The case objects of array field {@code field} ("cases" of verify, "inputs" of leak). */
  static List<RawCase> cases(JsonNode req, String field) throws BadRequest {
    JsonNode cs = req.get(field);
    if (cs == null || cs.isNull()) {
      return List.of();
    }
    if (!cs.isArray()) {
      throw new BadRequest("\"" + field + "\" must be an array");
    }
    List<RawCase> out = new ArrayList<>(cs.size());
    for (JsonNode c : cs) {
      if (!c.isObject()) {
        throw new BadRequest("every case must be a JSON object");
      }
      out.add(
          new RawCase(
              text(c, "id"),
              text(c, "op"),
              text(c, "key"),
              text(c, "iv"),
              text(c, "aad"),
              text(c, "msg"),
              integer(c, "counter"),
              text(c, "public"),
              text(c, "private"),
              text(c, "sig"),
              text(c, "seed"),
              optionalText(c, "m"),
              optionalText(c, "ctx"),
              bool(c, "deterministic")));
    }
    return out;
  }

  static ObjectNode object() {
    return JSON.createObjectNode();
  }

  static ArrayNode array() {
    return JSON.createArrayNode();
  }

  static ObjectNode ok() {
    ObjectNode n = object();
    n.put("ok", true);
    return n;
  }

  /** One response line (without the newline). */
  static String encode(ObjectNode resp) {
    try {
      return JSON.writeValueAsString(resp);
    } catch (JsonProcessingException e) {
      return error("cannot encode response: " + e.getOriginalMessage());
    }
  }

  static String error(String message) {
    ObjectNode n = object();
    n.put("ok", false);
    n.put("error", oneLine(message));
    try {
      return JSON.writeValueAsString(n);
    } catch (JsonProcessingException e) {
      return "{\"ok\":false,\"error\":\"cannot encode error\"}";
    }
  }

  /** An exception as one line: our own messages as they are, a library's with its class name. */
  static String describe(Throwable e) {
    String m = e.getMessage();
    if (e instanceof BadRequest
        || e instanceof Provider.NotOffered
        || e instanceof Provider.Unsupported
        || e.getClass() == IllegalArgumentException.class) {
      return m == null ? e.getClass().getSimpleName() : m;
    }
    return m == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": " + m;
  }

  /** Squeezes a message onto one line. */
  static String oneLine(String s) {
    String t = s == null ? "" : s.strip().replaceAll("\\s+", " ");
    return t.isEmpty() ? "error" : t;
  }
}
