package org.openmft.coordination.logger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openmft.coordination.logger.Logs.T0;
import static org.openmft.coordination.logger.Logs.cancelled;
import static org.openmft.coordination.logger.Logs.completed;
import static org.openmft.coordination.logger.Logs.id;
import static org.openmft.coordination.logger.Logs.item;
import static org.openmft.coordination.logger.Logs.monitorLog;
import static org.openmft.coordination.logger.Logs.progress;
import static org.openmft.coordination.logger.Logs.refusal;
import static org.openmft.coordination.logger.Logs.scheduleLog;
import static org.openmft.coordination.logger.Logs.started;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.openmft.xml.AgentRef;
import org.openmft.xml.Originator;
import org.openmft.xml.TransferSchedule;
import org.openmft.xml.log.LogAction;
import org.openmft.xml.log.LogItem;
import org.openmft.xml.log.MonitorLog;
import org.openmft.xml.log.NotAuthorizedLog;
import org.openmft.xml.log.ScheduleLog;
import org.openmft.xml.log.TransferLog;

/**
 * Our file logger lines read the way IBM's MFT dashboard parser reads IBM's: {@code parse_log_line}
 * in {@code MFT-Dashboard/json_converter.py} of the public repository {@code ibm-messaging/mq-mft}
 * (commit 3f5265c). It splits a line on {@code ;}, takes the time from field 0
 * ({@code %Y-%m-%dT%H:%M:%S}), the id from field 1, the type from field 2 and then, per type, the
 * fields whose indices are the constants below (each names the parser's key). And lines that IBM MQ
 * 9.1's file logger wrote, with its default format, have the shape of ours.
 */
class FileLogFormatTest {

    // json_converter.py, "TSTR": source_agent parts[4], source_qmgr [5], destination_agent [7],
    // destination_qmgr [8], user_id [9], job_name [10]
    private static final int TSTR_SOURCE_AGENT = 4;
    private static final int TSTR_SOURCE_QMGR = 5;
    private static final int TSTR_DESTINATION_AGENT = 7;
    private static final int TSTR_DESTINATION_QMGR = 8;
    private static final int TSTR_USER_ID = 9;
    private static final int TSTR_JOB_NAME = 10;
    // json_converter.py, "TCOM" and "TCAN"/"TDEL": result_code parts[3], source_agent [4], source_qmgr [5],
    // destination_agent [7], destination_qmgr [8], user_id [10]
    private static final int TCOM_RESULT_CODE = 3;
    private static final int TCOM_SOURCE_AGENT = 4;
    private static final int TCOM_SOURCE_QMGR = 5;
    private static final int TCOM_DESTINATION_AGENT = 7;
    private static final int TCOM_DESTINATION_QMGR = 8;
    private static final int TCOM_USER_ID = 10;
    // json_converter.py, "TPRO": result_code parts[3], source_file [4], source_type [6], destination_file [13],
    // destination_type [15]
    private static final int TPRO_RESULT_CODE = 3;
    private static final int TPRO_SOURCE_FILE = 4;
    private static final int TPRO_SOURCE_TYPE = 6;
    private static final int TPRO_DESTINATION_FILE = 13;
    private static final int TPRO_DESTINATION_TYPE = 15;
    // json_converter.py, "AUTH": result_code parts[3], action [4], authority [5], user_id [6], mqmd_user_id [7]
    private static final int AUTH_RESULT_CODE = 3;
    private static final int AUTH_ACTION = 4;
    private static final int AUTH_AUTHORITY = 5;
    private static final int AUTH_USER_ID = 6;
    private static final int AUTH_MQMD_USER_ID = 7;
    // json_converter.py, "SSIN": result_code parts[3], agent [4], action [5], user_id [6], timezone [8],
    // expire_count [9]
    private static final int SSIN_RESULT_CODE = 3;
    private static final int SSIN_AGENT = 4;
    private static final int SSIN_ACTION = 5;
    private static final int SSIN_USER_ID = 6;
    private static final int SSIN_TIMEZONE = 8;
    private static final int SSIN_EXPIRE_COUNT = 9;
    // json_converter.py, "SSTR": source_agent parts[3], source_qmgr [4], destination_agent [5], destination_qmgr [6]
    private static final int SSTR_SOURCE_AGENT = 3;
    private static final int SSTR_SOURCE_QMGR = 4;
    private static final int SSTR_DESTINATION_AGENT = 5;
    private static final int SSTR_DESTINATION_QMGR = 6;
    // json_converter.py, "SSTS": source_file parts[3], source_queue [4], destination_file [6], destination_type [7]
    private static final int SSTS_SOURCE_FILE = 3;
    private static final int SSTS_SOURCE_QUEUE = 4;
    private static final int SSTS_DESTINATION_FILE = 6;
    private static final int SSTS_DESTINATION_TYPE = 7;
    // json_converter.py, "SDEL", "SSKP" (and "SEXP" but for its action): result_code parts[3], agent [4],
    // action [5], user_id [6]
    private static final int SDEL_RESULT_CODE = 3;
    private static final int SDEL_AGENT = 4;
    private static final int SDEL_ACTION = 5;
    private static final int SDEL_USER_ID = 6;
    // json_converter.py, "MCRT": monitor_name parts[3], agent [4], qmgr [5], action [6]
    private static final int MCRT_MONITOR_NAME = 3;
    private static final int MCRT_AGENT = 4;
    private static final int MCRT_QMGR = 5;
    private static final int MCRT_ACTION = 6;
    // json_converter.py, "MACT" and "MFIR": result_code parts[3] (MFIR only), monitor_name [4], agent [5],
    // qmgr [6], action [7]
    private static final int MACT_RESULT_CODE = 3;
    private static final int MACT_MONITOR_NAME = 4;
    private static final int MACT_AGENT = 5;
    private static final int MACT_QMGR = 6;
    private static final int MACT_ACTION = 7;

    /** json_converter.py: {@code re.match(r"\s*\[([A-Z]+)\]", parts[2])}. */
    private static final Pattern TYPE = Pattern.compile("\\s*\\[([A-Z]+)\\]");
    /** json_converter.py: {@code datetime.strptime(parts[0], "%Y-%m-%dT%H:%M:%S")}. */
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");

    /**
     * A line split as json_converter.py splits it ({@code line.strip().split(";")}, which keeps empty
     * fields, the last one too), after checking the three fields it reads for every type.
     */
    private static String[] parse(String line, String type) {
        String[] parts = line.strip().split(";", -1);
        assertThat(parts.length).as("json_converter.py skips a line of fewer than 4 fields").isGreaterThanOrEqualTo(4);
        LocalDateTime.parse(parts[0], TIME);
        Matcher matcher = TYPE.matcher(parts[2]);
        assertThat(matcher.lookingAt()).isTrue();
        assertThat(matcher.group(1)).isEqualTo(type);
        return parts;
    }

    private static String only(List<String> lines) {
        assertThat(lines).hasSize(1);
        return lines.get(0);
    }

    @Test
    void managedCallLinesHaveIbmsCallCompletedInsertsInIbmsOrder() {
        org.openmft.xml.ProgramCall rotate = org.openmft.xml.ProgramCall.executable("rotate.sh",
                List.of("/var/log", "app"));
        AgentRef agent = new AgentRef("SRC", "QM_SRC");
        Originator alice = new Originator("host", "alice");
        TransferLog started = new TransferLog("6.00", id(7), TransferLog.SOURCE_AGENT, LogAction.CALL_STARTED, T0,
                agent, null, alice, "ROTATE", null, -1, -1, -1, List.of(), null, List.of(), null, Map.of(),
                List.of(org.openmft.xml.log.LogCall.started("call", rotate)));
        TransferLog completed = new TransferLog("6.00", id(7), TransferLog.SOURCE_AGENT, LogAction.CALL_COMPLETED, T0,
                agent, null, alice, "ROTATE", null, -1, -1, -1, List.of(), 40, List.of("failed"), null, Map.of(),
                List.of(new org.openmft.xml.log.LogCall("call", rotate, "failure", 1, 3, List.of(), List.of(), null)));

        String[] start = parse(only(FileLogFormat.lines(started, T0)), "CSTR");
        assertThat(start).containsSubsequence("SRC", "QM_SRC", "", "alice", "ROTATE", "executable", "rotate.sh");
        // IBM's callCompleted: result code (width 3), agent, QM, job, command type, name, arguments, outcome.
        String[] done = parse(only(FileLogFormat.lines(completed, T0)), "CCOM");
        assertThat(java.util.Arrays.copyOfRange(done, 3, done.length)).containsExactly("40 ", "SRC", "QM_SRC",
                "ROTATE", "executable", "rotate.sh", "/var/log app", "failure", "");
    }

    @Test
    void tstrHasTheAgentsUserAndJobWhereIbmsParserReadsThem() {
        String[] f = parse(only(FileLogFormat.lines(started(id(1), "SRC", "DST", T0), T0)), "TSTR");
        assertThat(f[0]).isEqualTo("2026-11-20T10:15:30");
        assertThat(f[1].strip()).isEqualTo(id(1));
        assertThat(f[TSTR_SOURCE_AGENT]).isEqualTo("SRC");
        assertThat(f[TSTR_SOURCE_QMGR]).isEqualTo("QM_SRC");
        assertThat(f[TSTR_DESTINATION_AGENT]).isEqualTo("DST");
        assertThat(f[TSTR_DESTINATION_QMGR]).isEqualTo("QM_DST");
        assertThat(f[TSTR_USER_ID]).isEqualTo("alice");
        assertThat(f[TSTR_JOB_NAME]).isEqualTo("nightly");
    }

    @Test
    void tcomAndTcanHaveTheResultAgentsAndUserWhereIbmsParserReadsThem() {
        String[] com = parse(only(FileLogFormat.lines(completed(id(1), "SRC", "DST", T0, 20, "BFGRP0034I: x"), T0)),
                "TCOM");
        String[] can = parse(only(FileLogFormat.lines(cancelled(id(2), "SRC", "DST", T0), T0)), "TCAN");
        assertThat(com[TCOM_RESULT_CODE]).isEqualTo("20 ");
        assertThat(can[TCOM_RESULT_CODE]).isEqualTo("41 ");
        for (String[] f : List.of(com, can)) {
            assertThat(f[TCOM_SOURCE_AGENT]).isEqualTo("SRC");
            assertThat(f[TCOM_SOURCE_QMGR]).isEqualTo("QM_SRC");
            assertThat(f[TCOM_DESTINATION_AGENT]).isEqualTo("DST");
            assertThat(f[TCOM_DESTINATION_QMGR]).isEqualTo("QM_DST");
            assertThat(f[TCOM_USER_ID]).isEqualTo("alice");
        }
    }

    @Test
    void tproHasTheItemsFilesAndTypesWhereIbmsParserReadsThem() {
        List<String> lines = FileLogFormat.lines(progress(id(1), "SRC", "DST", T0, 0,
                item("/in/a.txt", "/out/a.txt", 0), item("/in/b.txt", "/out/b.txt", 1)), T0);
        assertThat(lines).hasSize(2);
        String[] a = parse(lines.get(0), "TPRO");
        String[] b = parse(lines.get(1), "TPRO");
        assertThat(a[TPRO_RESULT_CODE]).isEqualTo("0  ");
        assertThat(b[TPRO_RESULT_CODE]).isEqualTo("1  ");
        assertThat(a[TPRO_SOURCE_FILE]).isEqualTo("/in/a.txt");
        assertThat(b[TPRO_DESTINATION_FILE]).isEqualTo("/out/b.txt");
        assertThat(a[TPRO_SOURCE_TYPE]).isEqualTo("file");
        assertThat(a[TPRO_DESTINATION_TYPE]).isEqualTo("file");
    }

    @Test
    void authHasTheActionAuthorityAndUsersWhereIbmsParserReadsThem() {
        NotAuthorizedLog refusal = refusal(id(3), "SRC", "mallory", "transfer", T0);
        String[] f = parse(FileLogFormat.line(refusal), "AUTH");
        assertThat(f[AUTH_RESULT_CODE]).isEqualTo("53 ");
        assertThat(f[AUTH_ACTION]).isEqualTo("not_authorized");
        assertThat(f[AUTH_AUTHORITY]).isEqualTo("transfer");
        assertThat(f[AUTH_USER_ID]).as("the message carries only the MQMD user").isEmpty();
        assertThat(f[AUTH_MQMD_USER_ID]).isEqualTo("mallory");
    }

    @Test
    void scheduleLinesHaveTheirFieldsWhereIbmsParserReadsThem() {
        ScheduleLog utc = scheduleLog(5, "submit", "SRC", T0);
        ScheduleLog london = new ScheduleLog(5, "submit", T0, utc.originator(), new TransferSchedule("admin",
                "Europe/London", LocalDateTime.of(2030, 1, 1, 11, 0), "hours", 2, 3, null), utc.sourceAgent(),
                utc.destinationAgent(), 0, List.of(), 5, utc.items(), "NIGHTLY");
        List<String> submit = FileLogFormat.lines(london);
        assertThat(submit).hasSize(4);
        String[] ssin = parse(submit.get(0), "SSIN");
        assertThat(ssin[1].strip()).isEqualTo("5");
        assertThat(ssin[SSIN_RESULT_CODE]).isEqualTo("0  ");
        assertThat(ssin[SSIN_AGENT]).isEqualTo("SRC");
        assertThat(ssin[SSIN_ACTION]).isEqualTo("submit");
        assertThat(ssin[SSIN_USER_ID]).isEqualTo("alice");
        assertThat(ssin[SSIN_TIMEZONE]).isEqualTo("Europe/London");
        assertThat(ssin[SSIN_EXPIRE_COUNT]).isEqualTo("3");
        String[] sstr = parse(submit.get(1), "SSTR");
        assertThat(sstr[SSTR_SOURCE_AGENT]).isEqualTo("SRC");
        assertThat(sstr[SSTR_SOURCE_QMGR]).isEqualTo("QM_SRC");
        assertThat(sstr[SSTR_DESTINATION_AGENT]).isEqualTo("DST");
        assertThat(sstr[SSTR_DESTINATION_QMGR]).isEqualTo("QM_DST");
        String[] ssts = parse(submit.get(2), "SSTS");
        assertThat(ssts[SSTS_SOURCE_FILE]).isEqualTo("/in/a.txt");
        assertThat(ssts[SSTS_SOURCE_QUEUE]).isEmpty();
        assertThat(ssts[SSTS_DESTINATION_FILE]).isEqualTo("/out/a.txt");
        assertThat(ssts[SSTS_DESTINATION_TYPE]).isEmpty();
        for (String action : List.of("delete", "expire", "skipped")) {
            String type = switch (action) {
                case "delete" -> "SDEL";
                case "expire" -> "SEXP";
                default -> "SSKP";
            };
            String[] f = parse(only(FileLogFormat.lines(scheduleLog(5, action, "SRC", T0))), type);
            assertThat(f[SDEL_RESULT_CODE]).isEqualTo("0  ");
            assertThat(f[SDEL_AGENT]).isEqualTo("SRC");
            assertThat(f[SDEL_ACTION]).isEqualTo(action);
            assertThat(f[SDEL_USER_ID]).isEqualTo("alice");
        }
    }

    @Test
    void monitorLinesHaveTheirFieldsWhereIbmsParserReadsThem() {
        String[] mcrt = parse(FileLogFormat.line(monitorLog("MON1", 30, "create", 0, T0)), "MCRT");
        assertThat(mcrt[MCRT_MONITOR_NAME]).isEqualTo("MON1");
        assertThat(mcrt[MCRT_AGENT]).isEqualTo("SRC");
        assertThat(mcrt[MCRT_QMGR]).isEqualTo("QM_SRC");
        assertThat(mcrt[MCRT_ACTION]).isEqualTo("create");
        String[] mact = parse(FileLogFormat.line(monitorLog("MON1", 30, "stop", 0, T0)), "MACT");
        String[] mfir = parse(FileLogFormat.line(monitorLog("MON1", 30, "triggerFail", 106, T0)), "MFIR");
        assertThat(mact[MACT_RESULT_CODE]).isEqualTo("0  ");
        assertThat(mfir[MACT_RESULT_CODE]).isEqualTo("106");
        for (String[] f : List.of(mact, mfir)) {
            assertThat(f[MACT_MONITOR_NAME]).isEqualTo("MON1");
            assertThat(f[MACT_AGENT]).isEqualTo("SRC");
            assertThat(f[MACT_QMGR]).isEqualTo("QM_SRC");
        }
        assertThat(mact[MACT_ACTION]).isEqualTo("stop");
        assertThat(mfir[MACT_ACTION]).isEqualTo("triggerFail");
    }

    // Lines IBM MQ 9.1's stand-alone file logger wrote with its default format, as published in the
    // public repository cgomeznt/MQ-MFT (guia/creartransferencia.rst, guia/Troubleshooting.rst,
    // guia/crearmonitor.rst).
    private static final String IBM_ID = "414d51204352433031434d4d20202020e9e5186307b8da24";
    private static final String IBM_METADATA = "com.ibm.wmqfte.SourceAgent=SRVFSAGN.AG, "
            + "com.ibm.wmqfte.DestinationAgent=BNC2NTAGN.AG, com.ibm.wmqfte.MqmdUser=usrmq, "
            + "com.ibm.wmqfte.OriginatingUser=mqm, com.ibm.wmqfte.OriginatingHost=192.168.1.10, "
            + "com.ibm.wmqfte.TransferId=" + IBM_ID + ", com.ibm.wmqfte.Priority=0";
    private static final String IBM_TSTR = "2022-09-07T21:07:17;" + IBM_ID
            + ";[TSTR];   ;SRVFSAGN.AG;SRVFSAGN;STANDARD;BNC2NTAGN.AG;BNC2NTAGN;mqm;;;" + IBM_METADATA + ";";
    private static final String IBM_TPRO = "2022-09-07T21:07:17;" + IBM_ID
            + ";[TPRO];0  ;/opt/SRVFSAGN.AG/SALIDA/SRVFSAGN.to.BNC2NTAGN;0;file;leave ;;;;;;"
            + "/opt/BNC2NTAGN.AG/ENTRADA/SRVFSAGN.to.BNC2NTAGN;0;file;overwrite;;;;;;;;";
    private static final String IBM_TCOM = "2022-09-07T21:07:17;" + IBM_ID
            + ";[TCOM];0  ;SRVFSAGN.AG;SRVFSAGN;STANDARD;BNC2NTAGN.AG;BNC2NTAGN;STANDARD;mqm;;"
            + "BFGRP0032I: The file transfer request has successfully completed.;" + IBM_METADATA + ";";
    private static final String IBM_TCAN = "2022-09-10T21:44:36;414d5120535256465341474e202020204bcf1c6303ac7023"
            + ";[TCAN]; ;SRVFSAGN.AG;SRVFSAGN;STANDARD;MERNTAGN.AG;MERNTAGN;;mqm;;;";
    private static final String IBM_MCRT = "2022-09-09T22:07:05;414d51204352433031434d4d20202020489f1b6303551022"
            + ";[MCRT];SETTLEMENT_TDD_MAESTRO_0105;SRVFSAGN.AG;SRVFSAGN;create;";
    private static final String IBM_MACT = "2023-10-31T14:49:07;null                                            "
            + ";[MACT];0  ;SRVPRAGN_TO_BAN01AGN;SRVPRAGN.AG;SRVPRAGN;start;";

    /** IBM's source agent's {@code agentType} (field 6, and the destination's, field 9, on TCOM and TCAN). */
    private static final String STANDARD = ";STANDARD;";

    private static TransferLog ibms(LogAction action, String time, Integer resultCode, List<String> supplements,
            List<LogItem> items) {
        Map<String, String> metadata = new LinkedHashMap<>();
        for (String pair : IBM_METADATA.split(", ")) {
            metadata.put(pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
        }
        return new TransferLog("6.00", IBM_ID, TransferLog.SOURCE_AGENT, action, Instant.parse(time + ".123Z"),
                new AgentRef("SRVFSAGN.AG", "SRVFSAGN"), new AgentRef("BNC2NTAGN.AG", "BNC2NTAGN"),
                new Originator("192.168.1.10", "mqm", "usrmq"), null, null, -1, -1, -1, items, resultCode, supplements,
                null, metadata);
    }

    @Test
    void transferLinesOfTheSameMessagesAreIbmsButForTheAgentTypeOurMessagesDoNotCarry() {
        String time = "2022-09-07T21:07:17";
        assertThat(only(FileLogFormat.lines(ibms(LogAction.STARTED, time, null, List.of(), List.of()), T0)))
                .isEqualTo(IBM_TSTR.replaceFirst(STANDARD, ";;"));
        LogItem item = new LogItem("binary", "/opt/SRVFSAGN.AG/SALIDA/SRVFSAGN.to.BNC2NTAGN", "leave", 0,
                "/opt/BNC2NTAGN.AG/ENTRADA/SRVFSAGN.to.BNC2NTAGN", "overwrite", 0, "MD5",
                "d41d8cd98f00b204e9800998ecf8427e", 0, null);
        assertThat(only(FileLogFormat.lines(ibms(LogAction.PROGRESS, time, null, List.of(), List.of(item)), T0)))
                .isEqualTo(IBM_TPRO);
        assertThat(only(FileLogFormat.lines(ibms(LogAction.COMPLETED, time, 0,
                List.of("BFGRP0032I: The file transfer request has successfully completed."), List.of()), T0)))
                .isEqualTo(IBM_TCOM.replace(STANDARD, ";;"));
    }

    @Test
    void aCancelledLineHasTheFieldsOfIbms() {
        String[] ibm = IBM_TCAN.split(";", -1);
        String[] ours = only(FileLogFormat.lines(cancelled(id(2), "SRC", "DST", T0), T0)).split(";", -1);
        assertThat(ours).hasSameSizeAs(ibm);
        assertThat(ours[2]).isEqualTo(ibm[2]);
        assertThat(ours[TCOM_USER_ID]).isEqualTo("alice");
        assertThat(ibm[TCOM_USER_ID]).isEqualTo("mqm");
    }

    @Test
    void monitorLinesOfTheSameMessagesAreIbms() {
        Instant time = Instant.parse("2022-09-09T22:07:05.500Z");
        AgentRef agent = new AgentRef("SRVFSAGN.AG", "SRVFSAGN");
        assertThat(FileLogFormat.line(new MonitorLog("6.00", "SETTLEMENT_TDD_MAESTRO_0105",
                "414d51204352433031434d4d20202020489f1b6303551022", null, "create", time, agent, 0, List.of())))
                .isEqualTo(IBM_MCRT);
        // A monitor started with its agent has no reference id: IBM writes null.
        assertThat(FileLogFormat.line(new MonitorLog("6.00", "SRVPRAGN_TO_BAN01AGN", null, null, "start",
                Instant.parse("2023-10-31T14:49:07Z"), new AgentRef("SRVPRAGN.AG", "SRVPRAGN"), 0, List.of())))
                .isEqualTo(IBM_MACT);
    }
}
