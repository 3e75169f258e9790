package org.openmft.agent.config;

import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * A rule one parsed value must satisfy, with the words that tell a user what is allowed. The
 * description is a noun phrase that fits both the error message ("... is not allowed: <b>an
 * integer from 1 to 1000</b> is required") and the reference table's "Allowed" column.
 *
 * @param <T> the value type
 */
public interface Validator<T> {

    /**
     * Whether the value is allowed.
     *
     * @param value the parsed value, never null
     * @return true when allowed
     */
    boolean accepts(T value);

    /**
     * What is allowed, as a noun phrase such as "an integer from 1 to 1000".
     *
     * @return the description
     */
    String describe();

    /**
     * An inclusive integer range.
     *
     * @param min the smallest allowed value
     * @param max the largest allowed value
     * @return the validator
     */
    static Validator<Integer> intRange(int min, int max) {
        checkRange(min, max);
        return of(v -> v >= min && v <= max, "an integer from " + min + " to " + max);
    }

    /**
     * An inclusive long range.
     *
     * @param min the smallest allowed value
     * @param max the largest allowed value
     * @return the validator
     */
    static Validator<Long> longRange(long min, long max) {
        checkRange(min, max);
        return of(v -> v >= min && v <= max, "an integer from " + min + " to " + max);
    }

    /**
     * One of a fixed list of strings, compared exactly (IBM's enumerated values are upper case).
     *
     * @param allowed the allowed values, in the order to show them
     * @return the validator
     */
    static Validator<String> oneOf(String... allowed) {
        List<String> values = List.of(allowed);
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no allowed values");
        }
        String text = values.size() == 1 ? values.get(0) : "one of " + String.join(", ", values);
        return of(values::contains, text);
    }

    /**
     * A string matching a regular expression in full.
     *
     * @param regex the expression, matched against the whole value
     * @param description what the expression allows, in words
     * @return the validator
     */
    static Validator<String> regex(String regex, String description) {
        Pattern pattern = Pattern.compile(regex);
        return of(v -> pattern.matcher(v).matches(), description);
    }

    /**
     * A validator from a predicate and its description.
     *
     * @param <T> the value type
     * @param test the rule
     * @param description what the rule allows, as a noun phrase
     * @return the validator
     */
    static <T> Validator<T> of(Predicate<? super T> test, String description) {
        Objects.requireNonNull(test, "test");
        Objects.requireNonNull(description, "description");
        return new Validator<>() {
            @Override
            public boolean accepts(T value) {
                return test.test(value);
            }

            @Override
            public String describe() {
                return description;
            }

            @Override
            public String toString() {
                return description;
            }
        };
    }

    private static void checkRange(long min, long max) {
        if (min > max) {
            throw new IllegalArgumentException("empty range " + min + ".." + max);
        }
    }
}
