package org.openmft.agent.tls;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.security.auth.x500.X500Principal;

/**
 * IBM MQ's {@code SSLPEER} / {@code SSLPEERNAME} pattern, as written in {@code agentSslPeerName}:
 * a distinguished-name pattern such as {@code CN=QM1*, O=Example, OU=MFT} that the queue manager's
 * certificate subject must match. IBM's rules, which this class follows:
 * <ul>
 *   <li>attributes are separated by commas or semicolons; spaces around separators and at either
 *       end of a value are ignored; a value may be in double quotes, which keep separators and
 *       spaces;</li>
 *   <li>values match irrespective of case; a value may start and/or end with {@code *}, which
 *       stands for any characters;</li>
 *   <li>every attribute of the pattern must be in the certificate, with a matching value; the
 *       certificate may have attributes the pattern does not mention;</li>
 *   <li>OU and DC may repeat: the pattern's values must match the certificate's first ones in
 *       order;</li>
 *   <li>ST, SP and S all mean the state or province; E and MAIL the e-mail address; UID and
 *       USERID the user id.</li>
 * </ul>
 * Immutable and thread-safe.
 */
public final class PeerNamePattern {
    /** IBM's attribute types, each mapped to the keyword the subject is printed with. */
    private static final Map<String, String> TYPES = Map.ofEntries(
            Map.entry("CN", "CN"), Map.entry("O", "O"), Map.entry("OU", "OU"), Map.entry("C", "C"),
            Map.entry("L", "L"), Map.entry("ST", "ST"), Map.entry("SP", "ST"), Map.entry("S", "ST"),
            Map.entry("DC", "DC"), Map.entry("STREET", "STREET"), Map.entry("UID", "UID"),
            Map.entry("USERID", "UID"), Map.entry("SERIALNUMBER", "SERIALNUMBER"), Map.entry("MAIL", "MAIL"),
            Map.entry("E", "MAIL"), Map.entry("T", "T"), Map.entry("PC", "PC"), Map.entry("DNQ", "DNQ"),
            Map.entry("UNSTRUCTUREDNAME", "UNSTRUCTUREDNAME"),
            Map.entry("UNSTRUCTUREDADDRESS", "UNSTRUCTUREDADDRESS"));
    /** Object identifiers the JDK prints numerically, and our keywords for them. */
    private static final Map<String, String> OID_KEYWORDS = Map.of(
            "2.5.4.5", "SERIALNUMBER", "1.2.840.113549.1.9.1", "MAIL", "2.5.4.12", "T", "2.5.4.17", "PC",
            "2.5.4.46", "DNQ", "1.2.840.113549.1.9.2", "UNSTRUCTUREDNAME", "1.2.840.113549.1.9.8",
            "UNSTRUCTUREDADDRESS", "0.9.2342.19200300.100.1.1", "UID");
    private static final Set<String> REPEATABLE = Set.of("OU", "DC");

    private final String text;
    /** Keyword to the values required, in order. */
    private final Map<String, List<String>> required;

    private PeerNamePattern(String text, Map<String, List<String>> required) {
        this.text = text;
        this.required = required;
    }

    /**
     * Parses a pattern.
     *
     * @param text the pattern, such as {@code CN=QM1, O=Example}
     * @return the pattern
     * @throws IllegalArgumentException naming the problem when the text is not a valid pattern
     */
    public static PeerNamePattern parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("an empty peer name matches nothing: give attributes such as CN=QM1");
        }
        Map<String, List<String>> required = new LinkedHashMap<>();
        int i = 0;
        int n = text.length();
        while (i < n) {
            while (i < n && (text.charAt(i) == ' ' || text.charAt(i) == ',' || text.charAt(i) == ';')) {
                i++;
            }
            if (i >= n) {
                break;
            }
            int eq = text.indexOf('=', i);
            if (eq < 0) {
                throw new IllegalArgumentException("'" + text.substring(i).trim() + "' is not TYPE=value");
            }
            String type = text.substring(i, eq);
            if (type.isEmpty() || type.endsWith(" ")) {
                throw new IllegalArgumentException("'" + type + "=' is not allowed: no space may come before '='");
            }
            String keyword = TYPES.get(type.toUpperCase(Locale.ROOT));
            if (keyword == null) {
                throw new IllegalArgumentException("attribute type '" + type + "' is not one IBM MQ allows in a peer"
                        + " name; allowed are " + String.join(", ", new java.util.TreeSet<>(TYPES.keySet())));
            }
            i = eq + 1;
            while (i < n && text.charAt(i) == ' ') {
                i++;
            }
            String value;
            if (i < n && text.charAt(i) == '"') {
                int close = text.indexOf('"', i + 1);
                if (close < 0) {
                    throw new IllegalArgumentException("the quoted value of " + type + " has no closing '\"'");
                }
                value = text.substring(i + 1, close);
                i = close + 1;
                while (i < n && text.charAt(i) == ' ') {
                    i++;
                }
                if (i < n && text.charAt(i) != ',' && text.charAt(i) != ';') {
                    throw new IllegalArgumentException("text after the quoted value of " + type);
                }
            } else {
                int end = i;
                while (end < n && text.charAt(end) != ',' && text.charAt(end) != ';') {
                    end++;
                }
                value = text.substring(i, end).trim();
                i = end;
            }
            if (value.isEmpty()) {
                throw new IllegalArgumentException("attribute " + type + " has no value");
            }
            String inner = value.length() > 2 ? value.substring(1, value.length() - 1) : "";
            if (inner.contains("*")) {
                throw new IllegalArgumentException("'" + value + "': '*' is allowed only at the start or end of a"
                        + " value");
            }
            List<String> values = required.computeIfAbsent(keyword, k -> new ArrayList<>());
            if (!values.isEmpty() && !REPEATABLE.contains(keyword)) {
                throw new IllegalArgumentException("attribute " + type + " is given twice; only OU and DC may repeat");
            }
            values.add(value);
        }
        if (required.isEmpty()) {
            throw new IllegalArgumentException("no attributes in '" + text + "'");
        }
        required.replaceAll((k, v) -> List.copyOf(v));
        return new PeerNamePattern(text.trim(), java.util.Collections.unmodifiableMap(required));
    }

    /**
     * Checks a certificate subject against this pattern.
     *
     * @param subject the queue manager certificate's subject
     * @return empty when it matches, otherwise why not, naming the attribute, such as
     *         {@code CN is 'QM1' where 'OTHER' is required}
     */
    public Optional<String> mismatch(X500Principal subject) {
        Map<String, List<String>> actual = attributes(subject);
        for (Map.Entry<String, List<String>> e : required.entrySet()) {
            String type = e.getKey();
            List<String> have = actual.getOrDefault(type, List.of());
            List<String> want = e.getValue();
            if (have.size() < want.size()) {
                return Optional.of(have.isEmpty()
                        ? "the certificate has no " + type + " attribute, where " + type + "=" + want.get(0)
                                + " is required"
                        : "the certificate has " + have.size() + " " + type + " attribute(s) " + have + ", where "
                                + want.size() + " " + want + " are required");
            }
            for (int k = 0; k < want.size(); k++) {
                if (!matches(want.get(k), have.get(k))) {
                    return Optional.of(type + " is '" + have.get(k) + "' where '" + want.get(k) + "' is required");
                }
            }
        }
        return Optional.empty();
    }

    static boolean matches(String pattern, String value) {
        String p = pattern.toUpperCase(Locale.ROOT);
        String v = value.toUpperCase(Locale.ROOT);
        boolean lead = p.startsWith("*");
        boolean trail = p.length() > 1 && p.endsWith("*");
        String core = p.substring(lead ? 1 : 0, p.length() - (trail ? 1 : 0));
        if (lead && trail) {
            return v.contains(core);
        }
        if (lead) {
            return v.endsWith(core);
        }
        if (trail) {
            return v.startsWith(core);
        }
        return v.equals(core);
    }

    /** The subject's attributes by keyword, repeated ones in the order the subject is written. */
    static Map<String, List<String>> attributes(X500Principal subject) {
        Map<String, List<String>> result = new LinkedHashMap<>();
        try {
            LdapName name = new LdapName(subject.getName(X500Principal.RFC2253));
            List<Rdn> rdns = new ArrayList<>(name.getRdns());
            // LdapName lists the rightmost RDN first; the written order is the reverse.
            java.util.Collections.reverse(rdns);
            for (Rdn rdn : rdns) {
                javax.naming.directory.Attributes attrs = rdn.toAttributes();
                var ids = attrs.getIDs();
                while (ids.hasMore()) {
                    String id = ids.next();
                    String keyword = OID_KEYWORDS.getOrDefault(id, id.toUpperCase(Locale.ROOT));
                    Object value = attrs.get(id).get();
                    result.computeIfAbsent(keyword, k -> new ArrayList<>())
                            .add(value instanceof byte[] b ? derString(b) : String.valueOf(value));
                }
            }
        } catch (javax.naming.NamingException e) {
            throw new IllegalArgumentException("cannot read the certificate subject " + subject, e);
        }
        return result;
    }

    /** A string attribute the JDK prints as DER (such as an e-mail address): tag, short length, text. */
    private static String derString(byte[] der) {
        if (der.length >= 2 && (der[1] & 0xff) == der.length - 2) {
            return new String(der, 2, der.length - 2, java.nio.charset.StandardCharsets.UTF_8);
        }
        return java.util.HexFormat.of().formatHex(der);
    }

    @Override
    public String toString() {
        return text;
    }
}
