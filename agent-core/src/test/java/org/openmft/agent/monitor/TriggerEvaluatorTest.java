package org.openmft.agent.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openmft.xml.MonitorCondition;
import org.openmft.xml.MonitorCondition.FilePattern;
import org.openmft.xml.MonitorDefinition;
import org.openmft.xml.Originator;

/** IBM's firing rules, poll by poll, without a directory or a clock. */
class TriggerEvaluatorTest {

    static MonitorDefinition monitor(boolean allOf, MonitorCondition... conditions) {
        return new MonitorDefinition("6.00", "M", null, new MonitorDefinition.PollInterval(1,
                MonitorDefinition.TimeUnit.SECONDS), 1, "A", "/in", 0, allOf, List.of(conditions),
                null, new MonitorDefinition.MonitorTask("", null, "<request/>"), new Originator("h", "u"), null, false, false);
    }

    static FilePattern wild(String text) {
        return new FilePattern(text, false);
    }

    static FileSnapshot file(String name, long size, long modified) {
        return new FileSnapshot("/in/" + name, name, size, modified);
    }

    /** Polls one after the other, keeping the history as the monitor does. */
    private static final class Polls {
        final TriggerEvaluator evaluator;
        Map<String, FileHistory> history = new HashMap<>();
        boolean armed = true;
        int max = -1;

        Polls(MonitorDefinition m) {
            evaluator = new TriggerEvaluator(m);
        }

        TriggerEvaluator.Decision poll(FileSnapshot... files) {
            TriggerEvaluator.Decision d = evaluator.evaluate(List.of(files), history, armed, max);
            history = d.history();
            armed = d.noMatchArmed();
            return d;
        }

        List<String> names(FileSnapshot... files) {
            return poll(files).triggered().stream().map(FileSnapshot::name).toList();
        }
    }

    @Test
    void aMatchingFileTriggersOnceUntilItChanges() {
        Polls p = new Polls(monitor(true, new MonitorCondition.FileMatch(wild("*.csv"), wild("*.tmp.csv"))));
        assertThat(p.names(file("b.csv", 1, 10), file("a.csv", 1, 10), file("x.txt", 1, 10), file("c.tmp.csv", 1, 10)))
                .containsExactly("a.csv", "b.csv");
        assertThat(p.names(file("a.csv", 1, 10), file("b.csv", 1, 10))).isEmpty();
        // A new time stamp is a change; so is a new size at the same time.
        assertThat(p.names(file("a.csv", 1, 20), file("b.csv", 2, 10))).containsExactly("a.csv", "b.csv");
        assertThat(p.names(file("a.csv", 1, 20), file("b.csv", 2, 10))).isEmpty();
    }

    @Test
    void aFileDeletedAndCreatedAgainTriggersAgain() {
        Polls p = new Polls(monitor(true, new MonitorCondition.FileMatch(wild("*"), null)));
        assertThat(p.names(file("a", 1, 10))).containsExactly("a");
        assertThat(p.names()).isEmpty();
        assertThat(p.history).isEmpty();
        assertThat(p.names(file("a", 1, 10))).containsExactly("a");
    }

    @Test
    void noSizeChangeWaitsForThatManyQuietPolls() {
        Polls p = new Polls(monitor(true, new MonitorCondition.FileSizeSame(2, wild("*.dat"), null)));
        assertThat(p.names(file("a.dat", 5, 1))).isEmpty();
        assertThat(p.names(file("a.dat", 9, 2))).isEmpty();
        assertThat(p.names(file("a.dat", 9, 2))).isEmpty();
        assertThat(p.names(file("a.dat", 9, 2))).containsExactly("a.dat");
        assertThat(p.names(file("a.dat", 9, 2))).isEmpty();
        // Written to after it triggered: quiet again for two polls, then it triggers again.
        assertThat(p.names(file("a.dat", 12, 3))).isEmpty();
        assertThat(p.names(file("a.dat", 12, 3))).isEmpty();
        assertThat(p.names(file("a.dat", 12, 3))).containsExactly("a.dat");
    }

    @Test
    void fileSizeTriggersWhenTheFileReachesTheSize() {
        Polls p = new Polls(monitor(true, new MonitorCondition.FileSize(1, MonitorCondition.SizeUnit.KB, wild("*"), null)));
        assertThat(p.names(file("a", 1023, 1))).isEmpty();
        assertThat(p.names(file("a", 1024, 2))).containsExactly("a");
        assertThat(p.names(file("a", 1024, 2))).isEmpty();
    }

    @Test
    void allOfNeedsEveryConditionAnyOfOne() {
        MonitorCondition csv = new MonitorCondition.FileMatch(wild("*.csv"), null);
        MonitorCondition big = new MonitorCondition.FileSize(10, MonitorCondition.SizeUnit.B, wild("*"), null);
        assertThat(new Polls(monitor(true, csv, big)).names(file("a.csv", 5, 1), file("b.csv", 50, 1), file("c", 50, 1)))
                .containsExactly("b.csv");
        assertThat(new Polls(monitor(false, csv, big)).names(file("a.csv", 5, 1), file("b.csv", 50, 1), file("c", 50, 1)))
                .containsExactly("a.csv", "b.csv", "c");
    }

    @Test
    void noMatchTriggersOnceAndIsArmedAgainByAMatch() {
        Polls p = new Polls(monitor(true, new MonitorCondition.FileNoMatch(wild("*.go"), null)));
        assertThat(p.poll(file("a", 1, 1)).noMatchTriggered()).isTrue();
        assertThat(p.poll(file("a", 1, 1)).noMatchTriggered()).isFalse();
        assertThat(p.poll(file("x.go", 1, 1)).noMatchTriggered()).isFalse();
        assertThat(p.poll().noMatchTriggered()).isTrue();
    }

    @Test
    void monitorMaxResourcesInPollLeavesTheRestForTheNextPoll() {
        Polls p = new Polls(monitor(true, new MonitorCondition.FileMatch(wild("*"), null)));
        p.max = 2;
        FileSnapshot[] files = {file("a", 1, 1), file("b", 1, 1), file("c", 1, 1)};
        assertThat(p.names(files)).containsExactly("a", "b");
        assertThat(p.names(files)).containsExactly("c");
        assertThat(p.names(files)).isEmpty();
    }

    @Test
    void regexPatternsMatchTheWholeName() {
        Polls p = new Polls(monitor(true, new MonitorCondition.FileMatch(new FilePattern("inv_[0-9]+\\.xml", true), null)));
        assertThat(p.names(file("inv_12.xml", 1, 1), file("inv_12.xml.bak", 1, 1), file("inv_x.xml", 1, 1)))
                .containsExactly("inv_12.xml");
    }

    @Test
    void aPollOfAnUnchangedDirectoryKeepsTheHistoryItselfAndRemembersOnlyMatchingFiles() {
        Polls p = new Polls(monitor(true, new MonitorCondition.FileSizeSame(2, wild("*.dat"), null)));
        FileSnapshot[] files = {file("a.dat", 1, 1), file("b.dat", 1, 1), file("x.txt", 1, 1)};
        p.poll(files);
        assertThat(p.history).containsOnlyKeys("/in/a.dat", "/in/b.dat");
        p.poll(files);
        assertThat(p.names(files)).containsExactly("a.dat", "b.dat");
        Map<String, FileHistory> settled = p.history;
        assertThat(p.poll(files).history()).as("nothing changed: the same history").isSameAs(settled);
        assertThat(p.poll(files).history()).isSameAs(settled);
        // A changed file is seen again, counted quiet again, and triggers again after two quiet polls.
        FileSnapshot[] changed = {file("a.dat", 2, 1), file("b.dat", 1, 1), file("x.txt", 1, 1)};
        assertThat(p.poll(changed).history()).isNotSameAs(settled);
        p.poll(changed);
        assertThat(p.names(changed)).containsExactly("a.dat");
        // A file gone is forgotten, even when another arrives in the same poll.
        assertThat(p.poll(file("a.dat", 2, 1), file("c.dat", 1, 1)).history()).containsOnlyKeys("/in/a.dat", "/in/c.dat");
    }
}
