package org.openmft.xml;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * IBM's command-line form of a program call ({@code fteCreateTransfer -presrc -postsrc -predst
 * -postdst}): {@code [type:]commandspec[,[retrycount][,[retrywait][,successrc]]]}, where
 * {@code commandspec} is {@code name} or {@code name(arg1,arg2,...)}. A backslash escapes the next
 * parenthesis, comma or backslash; before any other character it stands for itself (so
 * {@code C:\dir} keeps its backslash; IBM advises {@code \\} or {@code /} on Windows). Empty parts
 * take IBM's defaults: no retries, no wait, success code {@code 0}. Thread-safe (no state).
 */
public final class CallSpecs {

    private CallSpecs() {}

    /**
     * @param flag the flag being read, for messages ({@code -presrc}, ...)
     * @param value the flag's value
     * @return the call
     * @throws IllegalArgumentException naming the flag, the value and what is wrong
     */
    public static ProgramCall parse(String flag, String value) {
        try {
            return read(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(flag + " " + Checks.quote(value) + ": " + e.getMessage()
                    + " (expected [type:]name[(arg1,arg2,...)][,[retrycount][,[retrywait][,successrc]]])", e);
        }
    }

    /**
     * Writes a call in the command-line form, escaping what needs it, so that {@link #parse}
     * gives the same call back.
     */
    public static String format(ProgramCall call) {
        StringBuilder out = new StringBuilder();
        out.append(call.type() == CallType.ANT_SCRIPT ? "antscript" : call.type().xml()).append(':');
        escape(out, call.name());
        out.append('(');
        for (int i = 0; i < call.arguments().size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            escape(out, call.arguments().get(i));
        }
        out.append(')').append(',').append(call.retryCount()).append(',').append(call.retryWaitSeconds())
                .append(',').append(call.successCodes().expression());
        return out.toString();
    }

    private static void escape(StringBuilder out, String text) {
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (ch == '(' || ch == ')' || ch == ',' || ch == '\\') {
                out.append('\\');
            }
            out.append(ch);
        }
    }

    private static ProgramCall read(String value) {
        String spec = value.strip();
        CallType type = CallType.EXECUTABLE;
        int colon = spec.indexOf(':');
        if (colon > 0) {
            String prefix = spec.substring(0, colon).toLowerCase(Locale.ROOT);
            if (prefix.equals("executable") || prefix.equals("antscript") || prefix.equals("jcl")) {
                type = CallType.fromXml(prefix);
                spec = spec.substring(colon + 1);
            }
        }
        StringBuilder name = new StringBuilder();
        List<String> arguments = new ArrayList<>();
        int i = 0;
        int n = spec.length();
        boolean sawOpen = false;
        for (; i < n; i++) {
            char ch = spec.charAt(i);
            if (ch == '\\') {
                i = escaped(spec, i, name);
            } else if (ch == '(') {
                sawOpen = true;
                i = arguments(spec, i + 1, arguments);
                break;
            } else if (ch == ',') {
                break;
            } else if (ch == ')') {
                throw new IllegalArgumentException("a ')' without its '(' (escape it as \\))");
            } else {
                name.append(ch);
            }
        }
        if (sawOpen) {
            // i is on the ')': what follows is the end or a comma.
            i++;
            if (i < n && spec.charAt(i) != ',') {
                throw new IllegalArgumentException("unexpected " + Checks.quote(spec.substring(i))
                        + " after the arguments' ')'");
            }
        }
        if (name.toString().isBlank()) {
            throw new IllegalArgumentException("the program name is missing");
        }
        String[] options = i < n ? spec.substring(i + 1).split(",", -1) : new String[0];
        if (options.length > 3) {
            throw new IllegalArgumentException("too many parts after the command: "
                    + Checks.quote(spec.substring(i + 1)));
        }
        int retryCount = options.length > 0 ? number(options[0], "retrycount", 0) : 0;
        int retryWait = options.length > 1 ? number(options[1], "retrywait", 0) : 0;
        SuccessCodes success = options.length > 2 && !options[2].isBlank()
                ? SuccessCodes.of(options[2]) : SuccessCodes.ZERO;
        return new ProgramCall(type, name.toString().strip(), arguments, retryCount, retryWait, success);
    }

    /** Reads arguments from {@code i} to the closing ')'; returns the index of that ')'. */
    private static int arguments(String spec, int i, List<String> arguments) {
        StringBuilder current = new StringBuilder();
        boolean any = false;
        for (; i < spec.length(); i++) {
            char ch = spec.charAt(i);
            if (ch == '\\') {
                i = escaped(spec, i, current);
                any = true;
            } else if (ch == ',') {
                arguments.add(current.toString());
                current.setLength(0);
                any = true;
            } else if (ch == ')') {
                if (any || current.length() > 0) {
                    arguments.add(current.toString());
                }
                return i;
            } else if (ch == '(') {
                throw new IllegalArgumentException("a '(' inside the arguments (escape it as \\()");
            } else {
                current.append(ch);
                any = true;
            }
        }
        throw new IllegalArgumentException("the arguments' '(' is not closed by ')'");
    }

    /** Appends what the backslash at {@code i} stands for; returns the index of its last character. */
    private static int escaped(String spec, int i, StringBuilder out) {
        if (i + 1 >= spec.length()) {
            throw new IllegalArgumentException("a '\\' at the end escapes nothing (write \\\\ for a backslash)");
        }
        char next = spec.charAt(i + 1);
        if (next == '(' || next == ')' || next == ',' || next == '\\') {
            out.append(next);
            return i + 1;
        }
        out.append('\\');
        return i;
    }

    private static int number(String text, String part, int defaultValue) {
        String t = text.strip();
        if (t.isEmpty()) {
            return defaultValue;
        }
        try {
            return Integer.parseInt(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(part + " " + Checks.quote(t) + " is not a whole number");
        }
    }
}
