package org.openmft.agent.monitor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.openmft.xml.MonitorCondition;
import org.openmft.xml.MonitorDefinition;

/**
 * Decides, for one poll of a directory monitor, which files trigger: pure, no files, queues or
 * clocks, so every rule below is tested on its own.
 *
 * <p>IBM's rules (reference §1.2, §1.4): each poll lists the files, keeps those new or changed
 * against the history, and triggers them; a file triggers once and again only when it changes
 * (last-modified time or size) or is deleted and created again. Per condition:
 * <ul>
 *   <li>{@code fileMatch}: a file whose name matches (and is not excluded);</li>
 *   <li>{@code fileSize}: a matching file at least that large (one that is still smaller triggers
 *       on the poll that sees it reach the size);</li>
 *   <li>{@code fileSizeSame polls=n}: a matching file whose size and time stayed the same for n
 *       polls in a row after the poll that first saw them;</li>
 *   <li>{@code fileNoMatch}: no file matches. It triggers once, on the first poll that sees no
 *       match, and is armed again by a poll that sees a match; it carries no file, so its task
 *       may not use variables.</li>
 * </ul>
 * With {@code allOf} a file triggers when it meets every file condition and every
 * {@code fileNoMatch} holds; with {@code anyOf}, when it meets one, and a {@code fileNoMatch} that
 * holds triggers on its own. At most {@code maxResources} files trigger in one poll (IBM's
 * {@code monitorMaxResourcesInPoll}, -1 for no limit); the rest stay untriggered, so the next
 * poll takes them. Files trigger in name order within a poll.
 *
 * <p>Cheap on a large directory that does not change (the usual state of a monitored directory
 * between arrivals): a file's unchanged state is kept as the same object, quiet polls are counted
 * only as far as a {@code fileSizeSame} condition needs, only the files that may trigger are
 * sorted, and a poll that sees exactly the files of the history, unchanged and none triggering,
 * returns that history itself, so the caller knows by identity that there is nothing to save.
 *
 * <p>Immutable and thread-safe.
 */
public final class TriggerEvaluator {

    /**
     * What one poll decided.
     *
     * @param triggered the files that trigger now, in order; each task carries up to the batch size of them
     * @param noMatchTriggered whether a {@code fileNoMatch} condition triggers now (a task without a file)
     * @param history the history to keep, for exactly the files this poll saw that a file condition's
     *     pattern matches
     * @param noMatchArmed whether a {@code fileNoMatch} may trigger on a later poll
     */
    public record Decision(List<FileSnapshot> triggered, boolean noMatchTriggered, Map<String, FileHistory> history,
            boolean noMatchArmed) {}

    private final boolean allOf;
    private final List<MonitorCondition> fileConditions = new ArrayList<>();
    private final List<FilePatterns> filePatterns = new ArrayList<>();
    private final List<FilePatterns> noMatchPatterns = new ArrayList<>();
    /** Quiet polls worth counting: the largest {@code fileSizeSame polls}, 0 without one. */
    private final int pollsCounted;

    /** @param monitor the monitor whose conditions are evaluated */
    public TriggerEvaluator(MonitorDefinition monitor) {
        this.allOf = monitor.allOf();
        int polls = 0;
        for (MonitorCondition condition : monitor.conditions()) {
            if (condition instanceof MonitorCondition.FileNoMatch) {
                noMatchPatterns.add(new FilePatterns(condition));
            } else {
                fileConditions.add(condition);
                filePatterns.add(new FilePatterns(condition));
            }
            if (condition instanceof MonitorCondition.FileSizeSame same) {
                polls = Math.max(polls, same.polls());
            }
        }
        this.pollsCounted = polls;
    }

    /**
     * @param files what this poll saw, in any order
     * @param history what the previous polls left, keyed by path
     * @param noMatchArmed whether a {@code fileNoMatch} may trigger (true for a new monitor)
     * @param maxResources most files triggered by this poll, or -1 for no limit
     * @return what triggers and the history to keep
     */
    public Decision evaluate(List<FileSnapshot> files, Map<String, FileHistory> history, boolean noMatchArmed,
            int maxResources) {
        // Each file's next state, for the files a condition's pattern matches (no other can trigger);
        // a poll that sees the same such files unchanged keeps the history as it is.
        FileHistory[] states = new FileHistory[files.size()];
        int kept = 0;
        boolean same = true;
        for (int i = 0; i < states.length; i++) {
            FileSnapshot file = files.get(i);
            if (!anyPatternMatches(file.name())) {
                continue;
            }
            kept++;
            FileHistory before = history.get(file.path());
            states[i] = before == null ? FileHistory.first(file) : before.next(file, pollsCounted);
            same &= states[i] == before;
        }
        same &= kept == history.size();
        boolean noMatchHolds = !noMatchPatterns.isEmpty();
        for (FilePatterns p : noMatchPatterns) {
            for (FileSnapshot file : files) {
                if (p.matches(file.name())) {
                    noMatchHolds = false;
                    break;
                }
            }
        }
        boolean noMatchTriggered = false;
        boolean armed = noMatchArmed;
        if (!noMatchPatterns.isEmpty()) {
            if (!noMatchHolds) {
                armed = true;
            } else if (armed && (!allOf || fileConditions.isEmpty())) {
                noMatchTriggered = true;
                armed = false;
            }
        }
        // The files that may trigger, in name order; only these are sorted, not the whole listing.
        List<Integer> ready = new ArrayList<>();
        if (!fileConditions.isEmpty() && (!allOf || noMatchPatterns.isEmpty() || noMatchHolds)) {
            for (int i = 0; i < states.length; i++) {
                if (states[i] != null && !states[i].triggered() && meets(files.get(i), states[i])) {
                    ready.add(i);
                }
            }
            ready.sort((a, b) -> files.get(a).path().compareTo(files.get(b).path()));
            if (maxResources >= 0 && ready.size() > maxResources) {
                ready = ready.subList(0, maxResources);
            }
        }
        List<FileSnapshot> triggered = new ArrayList<>(ready.size());
        for (int i : ready) {
            triggered.add(files.get(i));
            states[i] = states[i].fired();
            same = false;
        }
        Map<String, FileHistory> next = history;
        if (!same) {
            next = new HashMap<>(Math.max(16, kept * 4 / 3 + 1));
            for (int i = 0; i < states.length; i++) {
                if (states[i] != null) {
                    next.put(files.get(i).path(), states[i]);
                }
            }
        }
        return new Decision(List.copyOf(triggered), noMatchTriggered, next, armed);
    }

    private boolean anyPatternMatches(String name) {
        for (FilePatterns p : filePatterns) {
            if (p.matches(name)) {
                return true;
            }
        }
        return false;
    }

    private boolean meets(FileSnapshot file, FileHistory state) {
        boolean any = false;
        for (int i = 0; i < fileConditions.size(); i++) {
            boolean met = filePatterns.get(i).matches(file.name()) && holds(fileConditions.get(i), file, state);
            if (allOf && !met) {
                return false;
            }
            any |= met;
        }
        return any;
    }

    private static boolean holds(MonitorCondition condition, FileSnapshot file, FileHistory state) {
        if (condition instanceof MonitorCondition.FileSize size) {
            return file.size() >= size.bytes();
        }
        if (condition instanceof MonitorCondition.FileSizeSame same) {
            return state.samePolls() >= same.polls();
        }
        return true;
    }
}
