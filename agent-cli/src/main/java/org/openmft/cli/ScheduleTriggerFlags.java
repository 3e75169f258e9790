package org.openmft.cli;

import java.time.Clock;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openmft.agent.schedule.ScheduleException;
import org.openmft.agent.schedule.ScheduleSpec;
import org.openmft.agent.scheduler.ScheduleDocuments;
import org.openmft.xml.TransferSchedule;
import org.openmft.xml.TransferTrigger;

/**
 * {@code fteCreateTransfer}'s schedule flags ({@code -ss -tb -oi -of -oc -es}) and trigger flags
 * ({@code -tr -tl}) turned into the request's {@code <schedule>} and {@code <trigger>}, refusing a
 * bad value with the flag's name.
 */
final class ScheduleTriggerFlags {
    /** {@code filesize>=n[B|KB|MB|GB]}, IBM's grammar; the unit defaults to bytes. */
    private static final Pattern SIZE = Pattern.compile("(?i)filesize\\s*>=\\s*([0-9]{1,18})\\s*(B|KB|MB|GB)?");

    private ScheduleTriggerFlags() {}

    /** The {@code <schedule>} the flags ask for, or null without any of them. */
    static TransferSchedule schedule(String ss, String tb, String oi, String of, String oc, String es, ZoneId adminZone,
            Clock clock) throws CommandFailure {
        if (ss == null && tb == null && oi == null && of == null && oc == null && es == null) {
            return null;
        }
        try {
            return ScheduleDocuments.toXml(ScheduleSpec.fromFlags(ss, tb, oi, of, oc, es, adminZone, clock));
        } catch (ScheduleException e) {
            throw new CommandFailure(ExitCodes.FAILED, "BFGCL0001E: " + e.getMessage() + "; nothing was sent");
        }
    }

    /**
     * The {@code <trigger>} of {@code -tr} and {@code -tl}, or null without {@code -tr}: {@code
     * file=exist,NAME[,NAME...]}, {@code file!=exist,...} (also {@code file=noexist}), or {@code
     * filesize>=n[B|KB|MB|GB],...}; the transfer runs when any name meets the condition.
     */
    static TransferTrigger trigger(String tr, String tl) throws CommandFailure {
        if (tr == null) {
            if (tl != null) {
                throw usage("-tl needs a trigger (-tr)");
            }
            return null;
        }
        boolean log = true;
        if (tl != null) {
            switch (tl.strip().toLowerCase(Locale.ROOT)) {
                case "yes" -> log = true;
                case "no" -> log = false;
                default -> throw usage("-tl '" + tl + "' is not valid; expected yes or no");
            }
        }
        String[] parts = tr.split(",");
        String condition = parts[0].strip();
        List<String> names = new ArrayList<>();
        for (int i = 1; i < parts.length; i++) {
            if (!parts[i].isBlank()) {
                names.add(parts[i].strip());
            }
        }
        if (names.isEmpty()) {
            throw usage("-tr '" + tr + "' names no file; expected CONDITION,NAME[,NAME...]");
        }
        List<TransferTrigger.Condition> conditions = new ArrayList<>();
        String c = condition.replace(" ", "").toLowerCase(Locale.ROOT);
        Matcher size = SIZE.matcher(condition);
        try {
            for (String name : names) {
                switch (c) {
                    case "file=exist" -> conditions.add(new TransferTrigger.FileExist("=", "exist", name));
                    case "file!=exist" -> conditions.add(new TransferTrigger.FileExist("!=", "exist", name));
                    case "file=noexist" -> conditions.add(new TransferTrigger.FileExist("=", "noexist", name));
                    case "file!=noexist" -> conditions.add(new TransferTrigger.FileExist("!=", "noexist", name));
                    default -> {
                        if (!size.matches()) {
                            throw usage("-tr '" + tr + "': the condition '" + condition + "' is not valid; expected"
                                    + " file=exist, file!=exist or filesize>=n[B|KB|MB|GB]");
                        }
                        conditions.add(new TransferTrigger.FileSize(Long.parseLong(size.group(1)),
                                size.group(2) == null ? "B" : size.group(2).toUpperCase(Locale.ROOT), name));
                    }
                }
            }
            return new TransferTrigger(log, conditions);
        } catch (IllegalArgumentException e) {
            throw usage("-tr '" + tr + "': " + e.getMessage());
        }
    }

    private static CommandFailure usage(String message) {
        return new CommandFailure(ExitCodes.FAILED, "BFGCL0001E: " + message);
    }
}
