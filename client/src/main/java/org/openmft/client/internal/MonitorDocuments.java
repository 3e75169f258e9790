package org.openmft.client.internal;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.openmft.client.MftClientException;
import org.openmft.xml.MalformedRequestException;
import org.openmft.xml.MonitorCondition;
import org.openmft.xml.MonitorCondition.FilePattern;
import org.openmft.xml.MonitorDefinition;
import org.openmft.xml.RequestParser;

/**
 * The parts of a Monitor.xsd document that IBM's fteCreateMonitor takes as text: the trigger
 * condition ({@code -tr}, with {@code -pt} and {@code -x}) and the task ({@code -mt}), read the same
 * way for the command line and {@link org.openmft.client.MonitorSpec}.
 *
 * <p>Internal to OpenMFT; not part of the public API.
 */
public final class MonitorDocuments {
    private static final Pattern NO_SIZE_CHANGE = Pattern.compile("(?i)noSizeChange=([0-9]+)");
    private static final Pattern FILE_SIZE = Pattern.compile("(?i)fileSize>=([0-9]+)(B|KB|MB|GB)?");

    private MonitorDocuments() {
    }

    /**
     * A trigger condition as fteCreateMonitor's flags give it.
     *
     * @param trigger {@code -tr}: {@code match,P}, {@code noMatch,P}, {@code noSizeChange=N,P},
     *     {@code fileSize>=N[B|KB|MB|GB],P}, {@code queueNotEmpty} or {@code completeGroups}; null for the
     *     default ({@code match,*} for a directory, {@code queueNotEmpty} for a queue)
     * @param patternType {@code -pt}: {@code wildcard} (null means this) or {@code regex}
     * @param exclude {@code -x}: files left out although they match, or null
     * @param queue whether the monitor watches a queue
     * @return the condition
     * @throws IllegalArgumentException naming the flag that is wrong
     */
    public static MonitorCondition condition(String trigger, String patternType, String exclude, boolean queue) {
        boolean regex = patternType != null && switch (patternType.toLowerCase(Locale.ROOT)) {
            case "regex" -> true;
            case "wildcard" -> false;
            default -> throw new IllegalArgumentException("-pt " + patternType + " is not valid; expected wildcard"
                    + " or regex");
        };
        String spec = trigger == null ? (queue ? "queueNotEmpty" : "match") : trigger.strip();
        if (spec.equalsIgnoreCase("queueNotEmpty")) {
            return new MonitorCondition.QueueNotEmpty();
        }
        if (spec.equalsIgnoreCase("completeGroups")) {
            return new MonitorCondition.CompleteGroups();
        }
        int comma = spec.indexOf(',');
        String kind = (comma < 0 ? spec : spec.substring(0, comma)).strip();
        String patternText = comma < 0 ? (regex ? ".*" : "*") : spec.substring(comma + 1);
        FilePattern pattern = new FilePattern(patternText, regex);
        FilePattern excluded = exclude == null ? null : new FilePattern(exclude, regex);
        if (kind.equalsIgnoreCase("match")) {
            return new MonitorCondition.FileMatch(pattern, excluded);
        }
        if (kind.equalsIgnoreCase("noMatch")) {
            return new MonitorCondition.FileNoMatch(pattern, excluded);
        }
        Matcher same = NO_SIZE_CHANGE.matcher(kind);
        if (same.matches()) {
            return new MonitorCondition.FileSizeSame(parseInt(same.group(1), "noSizeChange"), pattern, excluded);
        }
        Matcher size = FILE_SIZE.matcher(kind);
        if (size.matches()) {
            return new MonitorCondition.FileSize(parseLong(size.group(1), "fileSize"),
                    MonitorCondition.SizeUnit.fromXml(size.group(2) == null ? "B" : size.group(2)), pattern, excluded);
        }
        throw new IllegalArgumentException("-tr " + trigger + " is not valid; expected match,P, noMatch,P,"
                + " noSizeChange=N,P or fileSize>=N[B|KB|MB|GB],P (directories), queueNotEmpty or completeGroups"
                + " (queues)");
    }

    private static int parseInt(String digits, String what) {
        long value = parseLong(digits, what);
        if (value > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(what + " " + digits + " is out of range");
        }
        return (int) value;
    }

    private static long parseLong(String digits, String what) {
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " " + digits + " is out of range");
        }
    }

    /**
     * A monitor's task from a transfer request document ({@code <request>}, as fteCreateTransfer -gt
     * writes it, or a managed call), read as the agent will read it, so that a broken document is
     * refused here rather than by the agent.
     *
     * @param text the document; an XML declaration and a byte order mark are dropped
     * @param what what the document is, for messages ("the task file t.xml")
     * @return the task
     * @throws MftClientException code 1 (BFGCL0003E) when it is not a request, holds a schedule or
     *     cannot be read
     */
    public static MonitorDefinition.MonitorTask task(String text, String what) throws MftClientException {
        String request = text.strip();
        if (request.startsWith("\uFEFF")) {
            request = request.substring(1);
        }
        if (request.startsWith("<?xml")) {
            request = request.substring(request.indexOf("?>") + 2).strip();
        }
        if (!request.startsWith("<request")) {
            throw new MftClientException(MftClientException.FAILED, "BFGCL0003E: " + what
                    + " does not hold a transfer request (<request>); nothing was sent");
        }
        if (request.contains("<schedule")) {
            throw new MftClientException(MftClientException.FAILED, "BFGCL0003E: the task definition file contains a"
                    + " scheduled transfer, which a monitor cannot run; nothing was sent");
        }
        try {
            String probe = "<m:monitor xmlns:m=\"" + MonitorDefinition.NAMESPACE + "\" version=\"6.00\"><name>P</name>"
                    + "<pollInterval>1</pollInterval><agent>P</agent><resources><directory>/p</directory></resources>"
                    + "<triggerMatch><conditions><allOf><condition><fileMatch><pattern>*</pattern></fileMatch>"
                    + "</condition></allOf></conditions></triggerMatch><tasks><task><name/><transfer>" + request
                    + "</transfer></task></tasks><originator><hostName>h</hostName><userID>u</userID></originator>"
                    + "</m:monitor>";
            return ((MonitorDefinition) new RequestParser().parse(probe)).task();
        } catch (MalformedRequestException e) {
            throw new MftClientException(MftClientException.FAILED, "BFGCL0003E: " + what + " is not a valid request: "
                    + e.getMessage() + "; nothing was sent");
        }
    }
}
