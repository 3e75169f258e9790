package org.openmft.bench.report;

import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
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

    /**
     * Puts {@code value} under {@code field}: a number (an unknown or infinite double as null), a
     * boolean, null, or anything else as its text.
     */
    public static ObjectNode putValue(ObjectNode node, String field, Object value) {
        if (value == null) {
            return node.putNull(field);
        } else if (value instanceof Double d) {
            return putNumber(node, field, d);
        } else if (value instanceof Integer i) {
            return node.put(field, i);
        } else if (value instanceof Long l) {
            return node.put(field, l);
        } else if (value instanceof Boolean b) {
            return node.put(field, b);
        }
        return node.put(field, value.toString());
    }

    /** An array of {@code values} under {@code field}; an unknown or infinite one as null. */
    public static ArrayNode putNumbers(ObjectNode node, String field, double... values) {
        ArrayNode array = node.putArray(field);
        for (double d : values) {
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                array.addNull();
            } else {
                array.add(d);
            }
        }
        return array;
    }

    /** As {@link #putNumbers(ObjectNode, String, double...)}; a null element is null too. */
    public static ArrayNode putNumbers(ObjectNode node, String field, List<Double> values) {
        return putNumbers(node, field, values.stream().mapToDouble(v -> v == null ? Double.NaN : v).toArray());
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
