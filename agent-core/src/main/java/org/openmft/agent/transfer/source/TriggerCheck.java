package org.openmft.agent.transfer.source;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.openmft.agent.ResultCode;
import org.openmft.agent.transfer.files.Access;
import org.openmft.agent.transfer.files.PathRefusedException;
import org.openmft.agent.transfer.files.PathResolver;
import org.openmft.xml.TransferTrigger;

/**
 * Evaluates a transfer's {@code <trigger>} at the source agent when the request is planned: the
 * transfer runs when any condition holds ({@code fileExist}: the file is there, or is not, as asked;
 * {@code fileSize}: a regular file at least that big). The paths are the requester's, read through
 * the agent's sandbox: a path the sandbox refuses fails the transfer (40) rather than telling
 * anyone whether a file outside it exists. Nothing is polled: a trigger that does not hold ends the
 * transfer with 42.
 */
public final class TriggerCheck {
    private TriggerCheck() {}

    /**
     * The verdict.
     *
     * @param code  null when the trigger holds, else 42 (not met) or 40 (a path refused)
     * @param why   what was found, for the log and the reply
     */
    public record Verdict(ResultCode code, String why) {
        /** Whether the transfer may run. */
        public boolean met() {
            return code == null;
        }
    }

    /**
     * @param trigger the request's trigger
     * @param paths   the requester's resolver (sandbox applied)
     */
    public static Verdict evaluate(TransferTrigger trigger, PathResolver paths) {
        List<String> found = new ArrayList<>();
        for (TransferTrigger.Condition c : trigger.conditions()) {
            Path path;
            try {
                path = paths.resolve(c.path(), Access.READ);
            } catch (PathRefusedException e) {
                return new Verdict(ResultCode.FAILED, "BFGSS0021E: the trigger's path " + c.path()
                        + " may not be read: " + e.getMessage());
            }
            if (c instanceof TransferTrigger.FileExist e) {
                boolean exists = Files.exists(path, LinkOption.NOFOLLOW_LINKS);
                if (exists == e.wantsFile()) {
                    return new Verdict(null, "trigger condition met: " + c.path() + (exists ? " exists" : " does not exist"));
                }
                found.add(c.path() + (exists ? " exists" : " does not exist"));
            } else {
                TransferTrigger.FileSize s = (TransferTrigger.FileSize) c;
                long size = -1;
                try {
                    if (Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
                        size = Files.size(path);
                    }
                } catch (IOException ex) {
                    size = -1;
                }
                if (size >= s.bytes()) {
                    return new Verdict(null, "trigger condition met: " + c.path() + " holds " + size + " bytes");
                }
                found.add(c.path() + (size < 0 ? " is not a readable file" : " holds " + size + " bytes, fewer than "
                        + s.value() + s.units()));
            }
        }
        return new Verdict(ResultCode.TRIGGER_NOT_MET, "The transfer's trigger condition was not met: "
                + String.join("; ", found) + ".");
    }
}
