package org.openmft.xml;

import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.openmft.xml.DocumentCursor.Frame;

/**
 * Reads the scheduling parts of FileTransfer.xsd for {@link RequestParser}: a managed transfer's
 * {@code <schedule>} and {@code <trigger>}, and the {@code <deleteScheduledTransfer>} request.
 * Values outside IBM's words (a time base, an interval, a comparison) or times not in
 * {@code yyyy-MM-ddThh:mm} are refused naming the element or attribute. Whether a start is in the
 * past is for the source agent to judge: only it knows the source time base's clock.
 */
final class ScheduleTriggerParser {

    private final RequestParser parser;

    ScheduleTriggerParser(RequestParser parser) {
        this.parser = parser;
    }

    /** {@code <schedule><submit .../><repeat>...</repeat>?</schedule>}. */
    TransferSchedule schedule(XmlCursor c) throws MalformedRequestException {
        Frame f = c.current();
        c.attributes(Set.of());
        Children children = new Children(c, List.of("submit", "repeat"));
        Submit submit = children.required("submit", this::submit);
        Repeat repeat = children.optional("repeat", this::repeat);
        children.end();
        return RequestParser.build(c, f, () -> repeat == null
                ? new TransferSchedule(submit.timebase, submit.timezone, submit.time, null, 1, 0, null)
                : new TransferSchedule(submit.timebase, submit.timezone, submit.time, repeat.interval, repeat.frequency,
                        repeat.count, repeat.end));
    }

    private record Submit(String timebase, String timezone, LocalDateTime time) {}

    private record Repeat(String interval, int frequency, long count, LocalDateTime end) {}

    private Submit submit(XmlCursor c) throws MalformedRequestException {
        Frame f = c.current();
        Map<String, String> attributes = c.attributes(Set.of("timebase", "timezone"));
        String timebase = attributes.getOrDefault("timebase", "admin").strip();
        if (!TransferSchedule.TIMEBASES.contains(timebase)) {
            throw c.error(f, "attribute timebase=" + Checks.quote(timebase) + " is not valid; expected admin, source or UTC");
        }
        String timezone = attributes.get("timezone");
        timezone = timezone == null || timezone.isBlank() ? null : timezone.strip();
        LocalDateTime time = time(c, f, RequestParser.requiredText(c));
        String zone = timezone;
        RequestParser.build(c, f, () -> new TransferSchedule(timebase, zone, time, null, 1, 0, null));
        return new Submit(timebase, timezone, time);
    }

    private Repeat repeat(XmlCursor c) throws MalformedRequestException {
        c.attributes(Set.of());
        Children children = new Children(c, List.of("frequency", "expireTime", "expireCount"));
        Repeat frequency = children.required("frequency", x -> {
            Frame f = x.current();
            Map<String, String> attributes = x.attributes(Set.of("interval"));
            String interval = RequestParser.requiredAttribute(x, f, attributes, "interval").strip();
            if (!TransferSchedule.INTERVALS.contains(interval)) {
                throw x.error(f, "attribute interval=" + Checks.quote(interval)
                        + " is not valid; expected minutes, hours, days, weeks, months or years");
            }
            long n = number(x, f, RequestParser.requiredText(x), TransferSchedule.MAX_FREQUENCY);
            return new Repeat(interval, (int) n, 0, null);
        });
        LocalDateTime end = children.optional("expireTime", x -> {
            Frame f = x.current();
            x.attributes(Set.of());
            return time(x, f, RequestParser.requiredText(x));
        });
        Long count = end != null ? null : children.optional("expireCount", x -> {
            Frame f = x.current();
            x.attributes(Set.of());
            return number(x, f, RequestParser.requiredText(x), Integer.MAX_VALUE);
        });
        children.end();
        return new Repeat(frequency.interval, frequency.frequency, count == null ? 0 : count, end);
    }

    private static LocalDateTime time(XmlCursor c, Frame f, String text) throws MalformedRequestException {
        try {
            return LocalDateTime.parse(text, TransferSchedule.FORMAT);
        } catch (DateTimeParseException e) {
            throw c.error(f, "<" + f.name() + "> " + Checks.quote(text) + " is not a time in the form yyyy-MM-ddThh:mm");
        }
    }

    private static long number(XmlCursor c, Frame f, String text, long max) throws MalformedRequestException {
        try {
            long n = Long.parseLong(text);
            if (n >= 1 && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // Said below.
        }
        throw c.error(f, "<" + f.name() + "> " + Checks.quote(text) + " is not a whole number from 1 to " + max);
    }

    /** {@code <trigger log="yes|no">} holding {@code <fileExist>} and {@code <fileSize>} conditions. */
    TransferTrigger trigger(XmlCursor c) throws MalformedRequestException {
        Frame f = c.current();
        Map<String, String> attributes = c.attributes(Set.of("log"));
        String log = attributes.getOrDefault("log", "yes").strip();
        if (!log.equals("yes") && !log.equals("no")) {
            throw c.error(f, "attribute log=" + Checks.quote(log) + " is not valid; expected yes or no");
        }
        List<TransferTrigger.Condition> conditions = new java.util.ArrayList<>();
        while (true) {
            String next = c.nextChild();
            if (next == null) {
                break;
            }
            Frame at = c.current();
            if (next.equals("fileExist")) {
                Map<String, String> a = c.attributes(Set.of("comparison", "value"));
                String comparison = RequestParser.requiredAttribute(c, at, a, "comparison").strip();
                String value = RequestParser.requiredAttribute(c, at, a, "value").strip();
                String path = RequestParser.requiredText(c);
                conditions.add(RequestParser.build(c, at, () -> new TransferTrigger.FileExist(comparison, value, path)));
            } else if (next.equals("fileSize")) {
                Map<String, String> a = c.attributes(Set.of("comparison", "value", "units"));
                String comparison = RequestParser.requiredAttribute(c, at, a, "comparison").strip();
                if (!comparison.equals(">=")) {
                    throw c.error(at, "attribute comparison=" + Checks.quote(comparison) + " is not valid; expected >=");
                }
                long value = RequestParser.longAttribute(c, at, a, "value");
                String units = a.getOrDefault("units", "B").strip();
                String path = RequestParser.requiredText(c);
                conditions.add(RequestParser.build(c, at, () -> new TransferTrigger.FileSize(value, units, path)));
            } else {
                throw c.error(at, "unexpected element <" + next + "> in <trigger>; it may hold <fileExist> and <fileSize>");
            }
        }
        if (conditions.isEmpty()) {
            throw c.error(f, "<trigger> needs a <fileExist> or <fileSize> condition");
        }
        return new TransferTrigger(log.equals("yes"), conditions);
    }

    /** {@code <deleteScheduledTransfer><originator><delete>...</delete></originator><ID>n</ID><reply/>?}. */
    DeleteScheduledTransferRequest deleteScheduledTransfer(XmlCursor c, String version) throws MalformedRequestException {
        Frame f = c.current();
        c.attributes(Set.of());
        Children children = new Children(c, List.of("originator", "ID", "reply"));
        Originator originator = children.required("originator", x -> {
            x.attributes(Set.of());
            Children inner = new Children(x, List.of("delete"));
            Originator o = inner.required("delete", parser::originator);
            inner.end();
            return o;
        });
        long id = children.required("ID", x -> {
            Frame at = x.current();
            x.attributes(Set.of());
            return number(x, at, RequestParser.requiredText(x), Integer.MAX_VALUE);
        });
        ReplyTo reply = children.optional("reply", parser::replyTo);
        children.end();
        return RequestParser.build(c, f, () -> new DeleteScheduledTransferRequest(version, originator, id, reply));
    }
}
