package org.openmft.xml.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openmft.xml.AgentRef;
import org.openmft.xml.Originator;

/** Sample publications shared by the tests. */
final class Publications {
    static final String TRANSFER_ID = "414d5120514d5f5041592020202020204a1b8e6520012a05";
    static final Instant START = Instant.parse("2026-11-22T10:00:00.123Z");
    static final AgentRef SOURCE = new AgentRef("PAY.SRC", "QM_PAY");
    static final AgentRef DESTINATION = new AgentRef("BANK.DST", "QM_BANK");
    static final Originator ORIGINATOR = new Originator("batch01.example.com", "payroll", "mqmuser");

    /** Characters that need escaping, non-ASCII and surrounding whitespace, all legal XML 1.0. */
    static final String AWKWARD = "  a&b<c>d\"e'f]]>g\ttab\r\ncrlf\rcr\nlf é 中文 😀  ";

    private Publications() {}

    static String resource(String name) {
        try (InputStream in = Publications.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Map<String, String> metadata() {
        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put("com.ibm.wmqfte.SourceAgent", "PAY.SRC");
        metadata.put("com.ibm.wmqfte.JobName", "NIGHTLY");
        metadata.put("z-inserted-before-a", "1");
        metadata.put("a", "2");
        return metadata;
    }

    static TransferLog started() {
        return new TransferLog("6.00", TRANSFER_ID, TransferLog.SOURCE_AGENT, LogAction.STARTED, START, SOURCE,
                DESTINATION, ORIGINATOR, "NIGHTLY_PAYROLL", START, 2, 0, -1, List.of(), null, List.of(), null,
                metadata());
    }

    static LogItem succeeded() {
        return new LogItem("binary", "/data/out/payroll.csv", "delete", 48213, "/bank/inbound/payroll.csv",
                "overwrite", 48213, "MD5", "9e107d9d372bb6826bd81d3542a419d6", 0, null);
    }

    static LogItem failed() {
        return new LogItem("text", "/data/out/summary.txt", "leave", 1042, "/bank/inbound/summary.txt", "error", -1,
                null, null, 1, "BFGIO0006E: File \"/bank/inbound/summary.txt\" already exists.");
    }

    static TransferLog progress(LogItem... items) {
        return new TransferLog("6.00", TRANSFER_ID, TransferLog.SOURCE_AGENT, LogAction.PROGRESS,
                START.plusMillis(904), SOURCE, DESTINATION, ORIGINATOR, "NIGHTLY_PAYROLL", START, 2, 48213, 0,
                List.of(items), null, List.of(), null, Map.of());
    }

    static TransferLog completed() {
        return new TransferLog("6.00", TRANSFER_ID, TransferLog.SOURCE_AGENT, LogAction.COMPLETED,
                START.plusSeconds(7), SOURCE, DESTINATION, ORIGINATOR, "NIGHTLY_PAYROLL", START, 2, 48213, -1,
                List.of(), 40, List.of("BFGRP0034I: The file transfer request has completed with failures."),
                new Statistics(START.plusMillis(250), 1, 1, 0), metadata());
    }

    static TransferLog cancelled() {
        return new TransferLog("6.00", TRANSFER_ID, TransferLog.DESTINATION_AGENT, LogAction.CANCELLED,
                START.plusSeconds(3), SOURCE, DESTINATION, ORIGINATOR, null, START, 2, 1024, -1, List.of(), 2,
                List.of("cancelled by payroll"), null, Map.of());
    }

    static TransferLog malformed() {
        return new TransferLog("6.00", TRANSFER_ID, TransferLog.SOURCE_AGENT, LogAction.MALFORMED, START, null, null,
                null, null, null, -1, -1, -1, List.of(), 43,
                List.of("line 3, element <transferSet>: attribute priority=\"12\" is out of range 0-9"), null,
                Map.of());
    }

    static TransferProgress liveProgress() {
        return new TransferProgress("4.00", TRANSFER_ID, SOURCE, DESTINATION, START.plusMillis(2616), 3145728, 2.616, 1,
                2, 3145728, 7340032, "/data/out/ledger.dat", "/bank/inbound/LEDGER.DAT");
    }

    static AgentStatus clientStatus() {
        Map<String, String> source = new LinkedHashMap<>();
        source.put(TRANSFER_ID, "RunningTransfer");
        source.put("414d5120514d5f5041592020202020204a1b8e6520013b11", "NegotiatingTransfer");
        return new AgentStatus("PAY.SRC", "Payroll files to the bank", "9.4.0.0", "STANDARD", "Linux",
                "Europe/London", "batch01.example.com", "QM_PAY", "mq01.example.com", 1414, "MFT.SVRCONN", "ACTIVE",
                START.plusSeconds(60), START, 300, 25, 25, 1000, 3, source,
                Map.of("414d5120514d5f42414e4b2020202020e21c9a6520027f01", "ReSynchronisingTransfer"));
    }

    static AgentStatus bindingsStatus() {
        return new AgentStatus("PAY.SRC", null, null, null, null, null, null, null, null, -1, null, null, null, null,
                -1, -1, -1, -1, -1, Map.of(), Map.of());
    }
}
