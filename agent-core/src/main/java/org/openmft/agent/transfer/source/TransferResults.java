package org.openmft.agent.transfer.source;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.openmft.agent.ItemOutcome;
import org.openmft.agent.ResultCode;
import org.openmft.agent.TransferOutcome;
import org.openmft.agent.transfer.files.Access;
import org.openmft.agent.transfer.files.Sandbox;
import org.openmft.agent.transfer.files.SandboxViolationException;
import org.openmft.xml.Disposition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A source transfer's results: item dispositions, the outcome, and its supplement as IBM words it. */
public final class TransferResults {
    private static final Logger log = LoggerFactory.getLogger(TransferResults.class);

    private TransferResults() {
    }

    /**
     * Applies the source disposition of an item the destination confirmed: with
     * {@code disposition="delete"} the source file is deleted only after a successful item; a
     * failure to delete makes the item a warning (2), as does a file the sandbox refuses now: it is
     * judged again, since the plan of a transfer taken back after a restart names it, and it may
     * have been replaced by a link that leads out of the sandbox since it was read.
     */
    static ItemOutcome applyDisposition(String transferId, PlannedItem p, ItemOutcome confirmed, Sandbox sandbox) {
        if (confirmed.resultCode() != ItemOutcome.SUCCESS || p.item().source().disposition() != Disposition.DELETE
                || p.fromQueue()) {
            // A source queue's messages are removed by the transfer itself (SourceTransfer).
            return confirmed;
        }
        try {
            sandbox.check(p.file().source(), Access.READ);
            Files.delete(p.file().source());
        } catch (NoSuchFileException e) {
            // Deleted already: by this agent just before a restart (the result was not yet
            // journaled), or by someone else; either way the disposition holds.
            log.info("Transfer {}: source {} was already deleted", transferId, p.file().source());
        } catch (IOException | SandboxViolationException e) {
            return new ItemOutcome(confirmed.index(), confirmed.source(), confirmed.destination(), confirmed.bytes(),
                    ItemOutcome.WARNING, "BFGTR0075W: The source file \"" + p.file().source()
                            + "\" was transferred but could not be deleted: "
                            + (e instanceof SandboxViolationException refused ? refused.supplement() : e),
                    confirmed.checksum());
        }
        return confirmed;
    }

    /**
     * A transfer's outcome: {@code resultCode} when it ends early (items without a result are
     * failed with {@code supplement}); with null, computed from the item results.
     */
    static TransferOutcome outcome(String id, List<PlannedItem> items, ItemOutcome[] results, ResultCode resultCode,
            String supplement, Instant started, Instant ended) {
        List<ItemOutcome> outcomes = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            ItemOutcome r = results[i];
            if (r == null) {
                PlannedItem p = items.get(i);
                r = new ItemOutcome(i, p.file().source().toString(), p.item().destination().path(), 0,
                        ItemOutcome.FAILED, supplement, null);
            }
            outcomes.add(r);
        }
        ResultCode code = resultCode;
        String text = supplement;
        if (code == null) {
            code = ResultCode.fromItems(outcomes);
            text = summary(code, outcomes);
        }
        return new TransferOutcome(id, code.code(), text, outcomes, started, ended);
    }

    /** The supplement of a transfer's result 0, 20 or 40, with the first item's problem. */
    public static String summary(ResultCode code, List<ItemOutcome> outcomes) {
        long failed = outcomes.stream().filter(o -> o.resultCode() == ItemOutcome.FAILED).count();
        String firstProblem = outcomes.stream().filter(o -> o.resultCode() == ItemOutcome.FAILED)
                .map(ItemOutcome::supplement).filter(Objects::nonNull).findFirst().map(s -> " " + s).orElse("");
        return switch (code) {
            case SUCCESS -> "BFGRP0032I: The file transfer request has successfully completed.";
            case PARTIAL_SUCCESS -> "BFGRP0034I: The file transfer request has completed with problems: " + failed
                    + " of " + outcomes.size() + " files failed." + firstProblem;
            default -> "BFGRP0033E: The file transfer request has failed: no file was transferred." + firstProblem;
        };
    }
}
