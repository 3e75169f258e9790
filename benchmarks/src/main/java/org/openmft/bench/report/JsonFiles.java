package org.openmft.bench.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The result files' JSON, written and read with Jackson: objects keep the order their fields were
 * put in, pretty-printed; an unknown number ({@code NaN}) is {@code null}.
 */
public final class JsonFiles {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonFiles() {
    }

    /** A new, empty object to fill. */
    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /** Puts {@code d} under {@code field}, or null when it is unknown. */
    public static ObjectNode putNumber(ObjectNode node, String field, double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return node.putNull(field);
        }
        return node.put(field, d);
    }

    /** {@code tree} as pretty-printed JSON with a final line end. */
    public static String write(JsonNode tree) {
        try {
            return MAPPER.writeValueAsString(tree) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code json} as a tree. */
    public static JsonNode read(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** {@code s} as a JSON string literal (quotes and escapes), or {@code null}. */
    public static String string(String s) {
        try {
            return MAPPER.writeValueAsString(s);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
