package org.openmft.xml;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Which return codes of a program call count as success: IBM's {@code successRC} grammar.
 * Alternatives are joined by {@code |}; each alternative is a conjunction, joined by {@code &},
 * of terms {@code >n}, {@code <n}, {@code !n} (not equal) or {@code n} (equal). So
 * {@code >2&<7&!5|0|14} accepts 0, 3, 4, 6 and 14. The default is {@code 0}. Immutable.
 *
 * @param expression the expression as written, stripped of surrounding blanks
 */
public record SuccessCodes(String expression) {

    /** IBM's default: only 0 is success. */
    public static final SuccessCodes ZERO = new SuccessCodes("0");

    private static final int MAX_LENGTH = 1000;

    /**
     * Validates the expression.
     *
     * @throws IllegalArgumentException naming the term that is not valid
     */
    public SuccessCodes {
        Objects.requireNonNull(expression, "successRC");
        expression = expression.strip();
        parse(expression);
    }

    /**
     * @param value the text of a {@code successRC} attribute or of the CLI's successrc part
     * @return the codes
     * @throws IllegalArgumentException naming the term that is not valid
     */
    public static SuccessCodes of(String value) {
        return new SuccessCodes(value);
    }

    /** Whether {@code returnCode} is a success by this expression. */
    public boolean accepts(int returnCode) {
        for (List<Term> alternative : parse(expression)) {
            boolean all = true;
            for (Term t : alternative) {
                all &= t.accepts(returnCode);
            }
            if (all) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return expression;
    }

    private record Term(char op, long value) {
        boolean accepts(int rc) {
            return switch (op) {
                case '>' -> rc > value;
                case '<' -> rc < value;
                case '!' -> rc != value;
                default -> rc == value;
            };
        }
    }

    private static List<List<Term>> parse(String expression) {
        if (expression.isEmpty()) {
            throw new IllegalArgumentException("successRC must not be empty; expected return codes such as 0 or"
                    + " >2&<7&!5|0|14");
        }
        if (expression.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("successRC is longer than " + MAX_LENGTH + " characters");
        }
        List<List<Term>> alternatives = new ArrayList<>();
        for (String alternative : expression.split("\\|", -1)) {
            List<Term> terms = new ArrayList<>();
            for (String raw : alternative.split("&", -1)) {
                String term = raw.strip();
                char op = term.isEmpty() ? '=' : term.charAt(0);
                String number = op == '>' || op == '<' || op == '!' ? term.substring(1).strip() : term;
                if (op != '>' && op != '<' && op != '!') {
                    op = '=';
                }
                long value;
                try {
                    if (number.isEmpty() || !number.matches("-?[0-9]{1,10}")) {
                        throw new NumberFormatException();
                    }
                    value = Long.parseLong(number);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("successRC " + Checks.quote(expression) + " has the term "
                            + Checks.quote(term) + ", which is not >n, <n, !n or n (terms are joined by & and"
                            + " alternatives by |, as in >2&<7&!5|0|14)");
                }
                terms.add(new Term(op, value));
            }
            alternatives.add(terms);
        }
        return alternatives;
    }
}
