package org.openmft.xml;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.openmft.xml.DocumentCursor.Frame;

/**
 * Reads a call element of a transfer set ({@code <preSourceCall>}, {@code <postSourceCall>},
 * {@code <preDestinationCall>}, {@code <postDestinationCall>}): one {@code <command name type
 * retryCount retryWait successRC>} with {@code <argument>} children. Ant scripts and JCL are
 * refused as not supported, as is {@code <property>} (Ant properties). Stateless.
 */
final class CallParser {

    private CallParser() {}

    /** Reads the call element the cursor is on, including its end tag. */
    static ProgramCall call(XmlCursor c) throws MalformedRequestException {
        c.attributes(Set.of());
        Children children = new Children(c, List.of("command"));
        ProgramCall call = children.required("command", CallParser::command);
        children.end();
        return call;
    }

    private static ProgramCall command(XmlCursor c) throws MalformedRequestException {
        Frame f = c.current();
        Map<String, String> attributes = c.attributes(Set.of("name", "type", "retryCount", "retryWait", "successRC"));
        String name = RequestParser.requiredAttribute(c, f, attributes, "name");
        CallType type;
        try {
            type = CallType.fromXml(attributes.getOrDefault("type", "executable"));
        } catch (IllegalArgumentException e) {
            throw c.error(f, "attribute type=" + Checks.quote(attributes.get("type"))
                    + " is not valid; expected executable, antScript or jcl");
        }
        if (type != CallType.EXECUTABLE) {
            throw c.unsupported(f, "command type=" + Checks.quote(attributes.get("type")) + " is not supported"
                    + " (OpenMFT runs executables only: no Ant scripts, no JCL)");
        }
        int retryCount = (int) bounded(c, f, attributes, "retryCount", ProgramCall.MAX_RETRY_COUNT);
        int retryWait = (int) bounded(c, f, attributes, "retryWait", ProgramCall.MAX_RETRY_WAIT_SECONDS);
        String successRc = attributes.getOrDefault("successRC", "0");
        SuccessCodes success = RequestParser.build(c, f, () -> SuccessCodes.of(successRc));
        Children children = new Children(c, List.of("argument", "property"), Map.of(
                "property", "<property> (an Ant script's property) is not supported (no Ant scripts)"));
        List<String> arguments = children.repeated("argument", 0, x -> {
            x.attributes(Set.of());
            return x.text();
        });
        children.end();
        return RequestParser.build(c, f, () -> new ProgramCall(type, name, arguments, retryCount, retryWait, success));
    }

    private static long bounded(XmlCursor c, Frame f, Map<String, String> attributes, String name, long max)
            throws MalformedRequestException {
        if (!attributes.containsKey(name)) {
            return 0;
        }
        long value = RequestParser.longAttribute(c, f, attributes, name);
        if (value < 0 || value > max) {
            throw c.error(f, "attribute " + name + "=" + Checks.quote(attributes.get(name)) + " is out of range 0-" + max);
        }
        return value;
    }
}
