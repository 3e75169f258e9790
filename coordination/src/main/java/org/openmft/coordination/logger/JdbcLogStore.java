package org.openmft.coordination.logger;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Pattern;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.openmft.agent.config.Secrets;
import org.openmft.xml.AgentRef;
import org.openmft.xml.log.LogAction;
import org.openmft.xml.log.LogItem;
import org.openmft.xml.log.NotAuthorizedLog;
import org.openmft.xml.log.TransferLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link LogStore} in a relational database over plain JDBC: an embedded H2 file database by
 * default ({@link #openH2}), or PostgreSQL by URL ({@link #open}). The schema is created and
 * migrated by Flyway from {@code db/migration/logger} on the class path when the store opens, into
 * a schema of the caller's choice (IBM's default is {@value #DEFAULT_SCHEMA}).
 *
 * <p>The embedded database has one owner, the logger: {@link #openH2} opens the file and serves it
 * to readers until the store is closed; {@link #readH2} reads through that server, or read-only
 * when no logger runs ({@link EmbeddedDatabase}). So a reader never holds the file a logger writes.
 *
 * <p>Tables: {@code log_record} (every transfer log message, primary key {@code record_key}, with the
 * full XML), {@code transfer} (one row per transfer id, updated by each message),
 * {@code transfer_item} (one row per item of a progress message), IBM's {@code auth_event} (one
 * row per authority refusal, unique by its {@code record_key}; see V2__auth_event.sql) and IBM's
 * tables of the automation features ({@link AutomationRows}, V3__automation_tables.sql): a transfer
 * log's program calls in {@code call}, {@code call_argument}, {@code call_result} and
 * {@code transfer_calls}, written with its {@code log_record} row; schedule logs in
 * {@code schedule}, {@code schedule_spec}, {@code schedule_item} and {@code schedule_action}, and
 * monitor logs in {@code monitor} and {@code monitor_action}, each action row unique by its
 * {@code record_key}; and managed calls ({@code callStarted}, {@code callCompleted}) in
 * {@code call_request} (V4__call_request.sql), unique by its {@code record_key}, a completed call's
 * command and result in {@code call}, {@code call_argument} and {@code call_result}. The conditions
 * of a triggered transfer's {@code <trigger>} go to {@code trigger_condition}, with the log message
 * that carries it, and a monitor log's metadata to {@code monitor_metadata}, with its action row
 * (V5__trigger_and_monitor_details.sql, which also creates IBM's {@code monitor_exit_result}, empty);
 * a satisfied trigger's task request id goes to {@code monitor_action.task_request_id}
 * (V6__monitor_action_task_request.sql).
 *
 * <p>Each batch is one transaction; each record within it is applied under a savepoint, so that a
 * record the database refuses (SQL state class 22, data exception, or 23, integrity constraint) is
 * rolled back alone and reported as {@link StoreOutcome.Status#REJECTED}. Any other failure rolls the
 * whole batch back, drops the connection (the next call reconnects) and is thrown as
 * {@link LogStoreException}. Values longer than their column are rejected before the database sees
 * them, never truncated. When a commit fails with its outcome unknown (the connection broke while
 * committing), the logger rolls its messages back and they come again: each record is looked up by
 * its key first, so a batch that was committed after all is found and reported
 * {@link StoreOutcome.Status#DUPLICATE}, never stored twice.
 *
 * <p>Thread-safe: calls are serialised on one connection.
 *
 * <p>The file stays whole although it is long: writing and reading share the table layout (column
 * widths, row mapping), and most of it is the SQL of one schema.
 */
public final class JdbcLogStore implements LogStore {

    /** IBM's default schema for the database logger ({@code wmqfte.database.schema}). */
    public static final String DEFAULT_SCHEMA = "FTELOG";

    /** File name (without H2's {@code .mv.db}) of the default embedded database. */
    public static final String H2_DATABASE_NAME = "logger";

    /** Where the migrations are, on the class path. */
    static final String MIGRATIONS = "classpath:db/migration/logger";

    /**
     * Column widths of the migrations, checked before every write (and against the database's
     * metadata by the tests), so that a value too long is rejected with a reason that names it.
     */
    static final Map<String, Integer> COLUMN_WIDTHS = columnWidths();

    private static final Logger LOG = LoggerFactory.getLogger(JdbcLogStore.class);
    /** IBM's result code for a request that could not be understood. */
    private static final int MALFORMED_RESULT = 43;
    /** What IBM's {@code <notAuthorized>} says in its {@code <action>}, stored as AUTH_EVENT's ACTION. */
    private static final String NOT_AUTHORIZED_ACTION = "not_authorized";
    private static final Pattern SCHEMA = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");
    private static final String SUPPLEMENT_SEPARATOR = "\n";
    private static final String TRANSFER_COLUMNS = "transfer_id, source_agent, source_qmgr, destination_agent, "
            + "destination_qmgr, originator_user, originator_host, job_name, state, result_code, supplement, "
            + "start_time, end_time, total_items, bytes_sent";

    private final ConnectionFactory factory;
    /** The database in messages: a URL without credentials, or the embedded database's directory. */
    private final String description;
    private final String schema;
    /** The embedded database this store owns and serves, or {@code null}. */
    private final EmbeddedDatabaseOwner owner;
    private Connection connection;
    private boolean closed;

    /** Makes a new connection to the store's database. */
    @FunctionalInterface
    private interface ConnectionFactory {
        Connection connect() throws SQLException, IOException;
    }

    private JdbcLogStore(ConnectionFactory factory, String description, String schema, EmbeddedDatabaseOwner owner) {
        this.factory = factory;
        this.description = description;
        this.schema = schema;
        this.owner = owner;
    }

    /**
     * The URL with which the logger, the owner, opens its default embedded database: an H2 file
     * database {@value #H2_DATABASE_NAME} in {@code directory}, in embedded mode. Nobody else opens
     * the file with it while a logger may run: readers use {@link EmbeddedDatabase#connect}. Settings:
     * {@code WRITE_DELAY=0}, so that every commit is written to the file before it returns and a
     * killed process loses nothing it committed (H2's default writes up to half a second later; H2
     * does not force the file to the disk at each commit, so a power failure can still lose the last
     * commits); it also means H2 runs no background writer, which would otherwise compact the file
     * while the logger works. {@code MAX_COMPACT_TIME=0}: no compaction when the database closes
     * either. H2 2.3.232 compacts by moving chunks within the file, and on the layout a killed logger
     * leaves behind a move can go wrong and end the close half done, after which the next open finds
     * an older version and committed records are gone (seen in {@code LoggerProcessIT}; kept as a
     * file in {@code H2LogStoreTest}). What this costs: the file is not shrunk; the space of chunks
     * that hold no live data any more is reused for new ones. The URL holds no credentials.
     *
     * @param directory the directory for the database files
     * @return {@code jdbc:h2:file:<directory>/logger;WRITE_DELAY=0;MAX_COMPACT_TIME=0}
     * @throws IllegalArgumentException when the path contains ';', which H2 would read as a setting
     */
    public static String h2Url(Path directory) {
        return "jdbc:h2:file:" + h2Path(directory) + ";WRITE_DELAY=0;MAX_COMPACT_TIME=0";
    }

    /**
     * The URL with which a reader opens the default embedded database when no logger runs:
     * read-only ({@code ACCESS_MODE_DATA=r}), so that neither reading nor closing writes to the file,
     * and without H2's server mode, so that the reader serves nobody.
     *
     * @param directory the directory of the database files
     * @return {@code jdbc:h2:file:<directory>/logger;ACCESS_MODE_DATA=r}
     * @throws IllegalArgumentException when the path contains ';'
     */
    static String h2ReadOnlyUrl(Path directory) {
        return "jdbc:h2:file:" + h2Path(directory) + ";ACCESS_MODE_DATA=r";
    }

    private static String h2Path(Path directory) {
        String path = directory.toAbsolutePath().normalize().resolve(H2_DATABASE_NAME).toString();
        if (path.indexOf(';') >= 0) {
            throw new IllegalArgumentException("the logger database directory must not contain ';': " + directory);
        }
        return path;
    }

    /**
     * Opens (creating or migrating as needed) the default embedded database in a directory, with
     * IBM's default schema, as its owner ({@link #openH2(Path, String)}).
     *
     * @param directory the directory for the database files; created when missing
     * @return the store
     * @throws LogStoreException when the database cannot be opened or migrated
     */
    public static JdbcLogStore openH2(Path directory) throws LogStoreException {
        return openH2(directory, DEFAULT_SCHEMA);
    }

    /**
     * Opens (creating or migrating as needed) the default embedded database in a directory, as its
     * owner, for the logger: the directory is made private and the database password-protected, and
     * the store opens the file and serves it to readers until it is closed, as
     * {@link EmbeddedDatabase} describes. A reader that has the file open makes this wait, at most
     * 30 s.
     *
     * @param directory the directory for the database files; created when missing
     * @param schema the schema holding the tables, created when missing
     * @return the store
     * @throws LogStoreException when the database cannot be opened, protected, served or migrated,
     *     or another logger owns it
     */
    public static JdbcLogStore openH2(Path directory, String schema) throws LogStoreException {
        checkSchema(schema);
        String password = EmbeddedDatabase.prepare(directory);
        EmbeddedDatabaseOwner owner = EmbeddedDatabaseOwner.open(directory, password);
        try {
            String url = h2Url(directory);
            migrate(url, EmbeddedDatabase.USER, password, schema);
            return connected(new JdbcLogStore(byUrl(url, EmbeddedDatabase.USER, password), redact(url), schema,
                    owner));
        } catch (LogStoreException | RuntimeException e) {
            try {
                owner.close();
            } catch (LogStoreException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    /**
     * Opens the default embedded database in a directory for reading, as {@code mft transfer
     * list/show} does: through the server of the logger that owns it, or read-only when no logger
     * runs ({@link EmbeddedDatabase#connect}). Nothing is created or migrated; a lost connection is
     * made again the same way.
     *
     * @param directory the database's directory
     * @param schema the schema holding the tables
     * @return the store, for {@link #transfers} and {@link #transfer}; {@link #storeAll} fails on it
     *     when the file was opened read-only
     * @throws LogStoreException when the database cannot be reached
     */
    public static JdbcLogStore readH2(Path directory, String schema) throws LogStoreException {
        checkSchema(schema);
        return connected(new JdbcLogStore(() -> EmbeddedDatabase.connect(directory),
                "jdbc:h2:file:" + h2Path(directory) + " (read through its logger, or read-only)", schema, null));
    }

    private static JdbcLogStore connected(JdbcLogStore store) throws LogStoreException {
        synchronized (store) {
            store.connection();
        }
        return store;
    }

    private static ConnectionFactory byUrl(String url, String user, String password) {
        Properties properties = new Properties();
        if (user != null) {
            properties.setProperty("user", user);
        }
        if (password != null) {
            properties.setProperty("password", password);
        }
        return () -> DriverManager.getConnection(url, properties);
    }

    /**
     * Opens a database by JDBC URL, migrating its schema first.
     *
     * @param url {@code jdbc:h2:...} or {@code jdbc:postgresql://host:port/database}
     * @param user the database user, or {@code null} for the driver's default
     * @param password the password, or {@code null}
     * @param schema the schema holding the tables, created when missing; case-sensitive
     * @return the store
     * @throws LogStoreException when the database cannot be reached or migrated
     * @throws IllegalArgumentException when the schema name is not 1 to 63 letters, digits and '_'
     */
    public static JdbcLogStore open(String url, String user, String password, String schema)
            throws LogStoreException {
        migrate(url, user, password, schema);
        return connected(new JdbcLogStore(byUrl(url, user, password), redact(url), schema, null));
    }

    /**
     * Creates or migrates the logger's tables; does nothing when they are up to date.
     *
     * @param url the JDBC URL
     * @param user the database user, or {@code null}
     * @param password the password, or {@code null}
     * @param schema the schema holding the tables, created when missing
     * @return how many migrations were applied: 0 on an up-to-date database
     * @throws LogStoreException when the database cannot be reached or a migration fails
     * @throws IllegalArgumentException when the schema name is not valid
     */
    public static int migrate(String url, String user, String password, String schema) throws LogStoreException {
        Objects.requireNonNull(url, "url");
        checkSchema(schema);
        try {
            Flyway flyway = Flyway.configure(JdbcLogStore.class.getClassLoader())
                    .dataSource(url, user, password)
                    .locations(MIGRATIONS)
                    .placeholders(Map.of("keyColumn", keywordColumn(url.startsWith("jdbc:h2:"), "key"),
                            "valueColumn", keywordColumn(url.startsWith("jdbc:h2:"), "value")))
                    .schemas(schema)
                    .defaultSchema(schema)
                    .load();
            int applied = flyway.migrate().migrationsExecuted;
            if (applied > 0) {
                LOG.info("Logger database {} (schema {}): {} migration(s) applied", redact(url), schema, applied);
            }
            return applied;
        } catch (FlywayException e) {
            throw new LogStoreException("cannot create or migrate the logger tables in " + redact(url) + " (schema "
                    + schema + "): " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized List<StoreOutcome> storeAll(List<LogRecord> records) throws LogStoreException {
        Objects.requireNonNull(records, "records");
        if (records.isEmpty()) {
            return List.of();
        }
        Connection c = connection();
        List<StoreOutcome> outcomes = new ArrayList<>(records.size());
        try {
            for (LogRecord record : records) {
                outcomes.add(storeOne(c, Objects.requireNonNull(record, "record")));
            }
            c.commit();
            return List.copyOf(outcomes);
        } catch (SQLException e) {
            throw unavailable("cannot store " + records.size() + " log message(s)", e);
        }
    }

    @Override
    public synchronized List<StoredTransfer> transfers(TransferQuery query) throws LogStoreException {
        Objects.requireNonNull(query, "query");
        StringBuilder sql = new StringBuilder("SELECT ").append(TRANSFER_COLUMNS).append(" FROM transfer");
        List<String> conditions = new ArrayList<>();
        Optional<String> agent = query.agentUpperCase();
        if (agent.isPresent()) {
            conditions.add("(UPPER(source_agent) = ? OR UPPER(destination_agent) = ?)");
        }
        if (query.state() != null) {
            conditions.add("state = ?");
        }
        if (!conditions.isEmpty()) {
            sql.append(" WHERE ").append(String.join(" AND ", conditions));
        }
        sql.append(" ORDER BY start_time DESC, transfer_id DESC LIMIT ?");
        Connection c = connection();
        try {
            List<StoredTransfer> result = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
                int i = 1;
                if (agent.isPresent()) {
                    ps.setString(i++, agent.get());
                    ps.setString(i++, agent.get());
                }
                if (query.state() != null) {
                    ps.setString(i++, query.state().name());
                }
                ps.setInt(i, query.limit());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        result.add(transferRow(rs));
                    }
                }
            }
            c.commit();
            return List.copyOf(result);
        } catch (SQLException e) {
            throw unavailable("cannot list transfers", e);
        }
    }

    @Override
    public synchronized Optional<StoredTransfer> transfer(String transferId) throws LogStoreException {
        String id = Objects.requireNonNull(transferId, "transferId").toLowerCase(Locale.ROOT);
        Connection c = connection();
        try {
            StoredTransfer transfer = null;
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT " + TRANSFER_COLUMNS + " FROM transfer WHERE transfer_id = ?")) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        transfer = transferRow(rs);
                    }
                }
            }
            if (transfer != null) {
                transfer = transfer.withItems(items(c, id));
            }
            c.commit();
            return Optional.ofNullable(transfer);
        } catch (SQLException e) {
            throw unavailable("cannot read transfer " + id, e);
        }
    }

    @Override
    public synchronized void close() throws LogStoreException {
        if (closed) {
            return;
        }
        closed = true;
        Connection c = connection;
        connection = null;
        LogStoreException failure = null;
        if (c != null) {
            try {
                c.rollback();
                c.close();
            } catch (SQLException e) {
                failure = new LogStoreException("cannot close the logger database " + description + ": "
                        + e.getMessage(), e);
            }
        }
        if (owner != null) {
            try {
                owner.close();
            } catch (LogStoreException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "JdbcLogStore[" + description + ", schema " + schema + "]";
    }

    // ---- storing

    private StoreOutcome storeOne(Connection c, LogRecord record) throws SQLException {
        String key = record.key();
        if (exists(c, "SELECT 1 FROM " + keyTable(record) + " WHERE record_key = ?", key)) {
            return StoreOutcome.duplicate(key);
        }
        String invalid = tooLong(record);
        if (invalid != null) {
            return StoreOutcome.rejected(key, invalid);
        }
        Savepoint savepoint = c.setSavepoint();
        try {
            String refused = null;
            if (record.refusal() != null) {
                insertAuthEvent(c, record);
            } else if (record.schedule() != null) {
                AutomationRows.insertSchedule(c, record);
            } else if (record.monitor() != null) {
                AutomationRows.insertMonitor(c, record);
            } else if (record.log().action().managedCall()) {
                refused = AutomationRows.insertManagedCall(c, record, actionTime(record));
            } else {
                refused = apply(c, record);
            }
            if (refused != null) {
                c.rollback(savepoint);
                return StoreOutcome.rejected(key, refused);
            }
            c.releaseSavepoint(savepoint);
            return StoreOutcome.stored(key);
        } catch (SQLException e) {
            if (!concernsThisRecordOnly(e)) {
                throw e;
            }
            c.rollback(savepoint);
            return StoreOutcome.rejected(key, "the database refused it (SQL state " + e.getSQLState() + "): "
                    + e.getMessage());
        }
    }

    /** The table whose RECORD_KEY says that a record of this kind is stored. */
    private static String keyTable(LogRecord record) {
        if (record.refusal() != null) {
            return "auth_event";
        }
        if (record.schedule() != null) {
            return "schedule_action";
        }
        if (record.monitor() != null) {
            return "monitor_action";
        }
        return record.log().action().managedCall() ? "call_request" : "log_record";
    }

    /** Applies one record; returns why it cannot be stored (having written nothing), or {@code null}. */
    private static String apply(Connection c, LogRecord record) throws SQLException {
        TransferLog log = record.log();
        String id = log.transferId().toLowerCase(Locale.ROOT);
        boolean known = exists(c, "SELECT 1 FROM transfer WHERE transfer_id = ?", id);
        LogAction action = log.action();
        if (!known && action != LogAction.STARTED && action != LogAction.MALFORMED) {
            return "no 'started' message was stored for transfer " + id + ", so this '" + action.xml()
                    + "' message cannot be attached to it (IBM's loggers reject such messages too)";
        }
        if (action == LogAction.COMPLETED && log.resultCode() == null) {
            return "the 'completed' message of transfer " + id + " has no result code";
        }
        for (LogItem item : log.items()) {
            if (item.source() == null) {
                return "an item of the 'progress' message of transfer " + id + " has no source";
            }
        }

        Instant time = actionTime(record);
        insertRecord(c, record, id, time);
        if (known) {
            describe(c, log, id);
        } else {
            insertTransfer(c, log, id, time);
        }
        AutomationRows.insertCalls(c, record, id);
        AutomationRows.insertTriggerConditions(c, log, id);
        switch (action) {
            case STARTED -> { }
            case PROGRESS -> {
                try (PreparedStatement ps = c.prepareStatement("UPDATE transfer SET state = CASE WHEN state = ? "
                        + "THEN ? ELSE state END, bytes_sent = COALESCE(?, bytes_sent) WHERE transfer_id = ?")) {
                    ps.setString(1, TransferState.STARTED.name());
                    ps.setString(2, TransferState.IN_PROGRESS.name());
                    setLong(ps, 3, log.bytesSent() >= 0 ? log.bytesSent() : null);
                    ps.setString(4, id);
                    ps.executeUpdate();
                }
                upsertItems(c, log, id);
            }
            case COMPLETED -> end(c, log, id, time, TransferState.completedWith(log.resultCode()), log.resultCode());
            case CANCELLED -> end(c, log, id, time, TransferState.CANCELLED, log.resultCode());
            case MALFORMED -> end(c, log, id, time, TransferState.FAILED,
                    log.resultCode() != null ? log.resultCode() : MALFORMED_RESULT);
        }
        return null;
    }

    private static void insertRecord(Connection c, LogRecord record, String id, Instant time) throws SQLException {
        TransferLog log = record.log();
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO log_record (record_key, transfer_id, log_action, "
                + "agent_role, action_time, topic, received_time, message_xml) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, record.key());
            ps.setString(2, id);
            ps.setString(3, log.action().xml());
            ps.setString(4, log.agentRole() == null ? "" : log.agentRole());
            setTime(ps, 5, time);
            ps.setString(6, record.topic());
            setTime(ps, 7, record.received());
            ps.setString(8, record.xml());
            ps.executeUpdate();
        }
    }

    /**
     * IBM's AUTH_EVENT row of a refusal: the first supplement is the refusal in words (RESULT_TEXT),
     * the second the refused request as received (ORIGINAL_XML_REQUEST); IBM's documents have no
     * more, and any further ones are kept with the request rather than dropped. A blank id (a refused
     * message without one) is stored as NULL. Unlike transfer messages a refusal needs no earlier one.
     */
    private static void insertAuthEvent(Connection c, LogRecord record) throws SQLException {
        NotAuthorizedLog refusal = record.refusal();
        List<String> supplements = refusal.supplements();
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO auth_event (record_key, action, command_id, "
                + "time, originator_mq_user, authority, original_xml_request, resultcode, result_text, agent) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, record.key());
            ps.setString(2, NOT_AUTHORIZED_ACTION);
            setString(ps, 3, refusal.id().isBlank() ? null : refusal.id());
            setTime(ps, 4, refusal.time());
            setString(ps, 5, refusal.mqmdUserId());
            ps.setString(6, refusal.authority());
            setString(ps, 7, supplements.size() < 2 ? null
                    : String.join(SUPPLEMENT_SEPARATOR, supplements.subList(1, supplements.size())));
            ps.setInt(8, refusal.resultCode());
            setString(ps, 9, supplements.isEmpty() ? null : supplements.get(0));
            setString(ps, 10, record.refusingAgent());
            ps.executeUpdate();
        }
    }

    private static void insertTransfer(Connection c, TransferLog log, String id, Instant time) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO transfer (transfer_id, source_agent, source_qmgr, "
                + "destination_agent, destination_qmgr, originator_user, originator_host, job_name, state, "
                + "start_time, total_items) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, id);
            int next = setDescription(ps, 2, log);
            ps.setString(next, TransferState.STARTED.name());
            setTime(ps, next + 1, log.startTime() != null ? log.startTime() : time);
            setInt(ps, next + 2, log.totalItems() >= 0 ? log.totalItems() : null);
            ps.executeUpdate();
        }
    }

    /** Fills in what earlier messages left unknown; what is known stays. */
    private static void describe(Connection c, TransferLog log, String id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE transfer SET source_agent = COALESCE(source_agent, ?), "
                + "source_qmgr = COALESCE(source_qmgr, ?), destination_agent = COALESCE(destination_agent, ?), "
                + "destination_qmgr = COALESCE(destination_qmgr, ?), originator_user = COALESCE(originator_user, ?), "
                + "originator_host = COALESCE(originator_host, ?), job_name = COALESCE(job_name, ?), "
                + "total_items = COALESCE(total_items, ?) WHERE transfer_id = ?")) {
            int next = setDescription(ps, 1, log);
            setInt(ps, next, log.totalItems() >= 0 ? log.totalItems() : null);
            ps.setString(next + 1, id);
            ps.executeUpdate();
        }
    }

    /** Sets agents, originator and job from {@code first}; returns the next parameter index. */
    private static int setDescription(PreparedStatement ps, int first, TransferLog log) throws SQLException {
        AgentRef source = log.sourceAgent();
        AgentRef destination = log.destinationAgent();
        setString(ps, first, source == null ? null : source.agent());
        setString(ps, first + 1, source == null ? null : source.qmgr());
        setString(ps, first + 2, destination == null ? null : destination.agent());
        setString(ps, first + 3, destination == null ? null : destination.qmgr());
        setString(ps, first + 4, log.originator() == null ? null : log.originator().userId());
        setString(ps, first + 5, log.originator() == null ? null : log.originator().hostName());
        setString(ps, first + 6, log.jobName());
        return first + 7;
    }

    private static void end(Connection c, TransferLog log, String id, Instant time, TransferState state,
            Integer resultCode) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE transfer SET state = ?, result_code = ?, "
                + "supplement = ?, end_time = ?, bytes_sent = COALESCE(?, bytes_sent) WHERE transfer_id = ?")) {
            ps.setString(1, state.name());
            setInt(ps, 2, resultCode);
            setString(ps, 3, log.supplements().isEmpty() ? null : String.join(SUPPLEMENT_SEPARATOR, log.supplements()));
            setTime(ps, 4, time);
            setLong(ps, 5, log.bytesSent() >= 0 ? log.bytesSent() : null);
            ps.setString(6, id);
            ps.executeUpdate();
        }
    }

    /** Items are numbered from the message's index, or after the items stored so far when it has none. */
    private static void upsertItems(Connection c, TransferLog log, String id) throws SQLException {
        if (log.items().isEmpty()) {
            return;
        }
        int base = log.index();
        if (base < 0) {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT COALESCE(MAX(item_index) + 1, 0) FROM transfer_item WHERE transfer_id = ?")) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    base = rs.getInt(1);
                }
            }
        }
        try (PreparedStatement update = c.prepareStatement("UPDATE transfer_item SET source = ?, source_size = ?, "
                + "destination = ?, destination_size = ?, transfer_mode = ?, checksum_method = ?, checksum = ?, "
                + "result_code = ?, supplement = ? WHERE transfer_id = ? AND item_index = ?");
                PreparedStatement insert = c.prepareStatement("INSERT INTO transfer_item (source, source_size, "
                        + "destination, destination_size, transfer_mode, checksum_method, checksum, result_code, "
                        + "supplement, transfer_id, item_index) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            int index = base;
            for (LogItem item : log.items()) {
                setItem(update, item, id, index);
                if (update.executeUpdate() == 0) {
                    setItem(insert, item, id, index);
                    insert.executeUpdate();
                }
                index++;
            }
        }
    }

    private static void setItem(PreparedStatement ps, LogItem item, String id, int index) throws SQLException {
        ps.setString(1, item.source());
        setLong(ps, 2, item.sourceSize() >= 0 ? item.sourceSize() : null);
        setString(ps, 3, item.destination());
        setLong(ps, 4, item.destinationSize() >= 0 ? item.destinationSize() : null);
        setString(ps, 5, item.mode());
        setString(ps, 6, item.checksumMethod());
        setString(ps, 7, item.checksum());
        ps.setInt(8, item.resultCode());
        setString(ps, 9, item.supplement());
        ps.setString(10, id);
        ps.setInt(11, index);
    }

    /**
     * How SQL names a column called by a word that is a keyword in H2 2.x but not in PostgreSQL
     * ({@code key}, {@code value}: IBM's names in MONITOR_METADATA and TRIGGER_CONDITION): quoted in
     * H2's upper case on H2, as it is elsewhere.
     */
    static String keywordColumn(boolean h2, String name) {
        return h2 ? '"' + name.toUpperCase(Locale.ROOT) + '"' : name;
    }

    /** {@link #keywordColumn(boolean, String)} for the database of a connection. */
    static String keywordColumn(Connection c, String name) throws SQLException {
        return keywordColumn("H2".equalsIgnoreCase(c.getMetaData().getDatabaseProductName()), name);
    }

    /** Why a value of the record does not fit its column, or {@code null} when all fit. */
    private static String tooLong(LogRecord record) {
        if (record.refusal() != null) {
            return tooLong(record.refusal(), record.refusingAgent());
        }
        List<String> problems = new ArrayList<>();
        if (record.schedule() != null) {
            AutomationRows.scheduleProblems(problems, record.schedule());
            return tooLong(problems);
        }
        if (record.monitor() != null) {
            AutomationRows.monitorProblems(problems, record.monitor());
            return tooLong(problems);
        }
        TransferLog log = record.log();
        if (log.action().managedCall()) {
            AutomationRows.managedCallProblems(problems, log);
            return tooLong(problems);
        }
        AutomationRows.callProblems(problems, log);
        AutomationRows.triggerProblems(problems, log);
        check(problems, "transfer.transfer_id", "transfer id", log.transferId());
        check(problems, "log_record.agent_role", "agent role", log.agentRole());
        check(problems, "log_record.topic", "topic", record.topic());
        if (log.sourceAgent() != null) {
            check(problems, "transfer.source_agent", "source agent", log.sourceAgent().agent());
            check(problems, "transfer.source_qmgr", "source queue manager", log.sourceAgent().qmgr());
        }
        if (log.destinationAgent() != null) {
            check(problems, "transfer.destination_agent", "destination agent", log.destinationAgent().agent());
            check(problems, "transfer.destination_qmgr", "destination queue manager", log.destinationAgent().qmgr());
        }
        if (log.originator() != null) {
            check(problems, "transfer.originator_user", "originator user", log.originator().userId());
            check(problems, "transfer.originator_host", "originator host", log.originator().hostName());
        }
        check(problems, "transfer.job_name", "job name", log.jobName());
        int n = 0;
        for (LogItem item : log.items()) {
            String what = "item " + n++ + " ";
            check(problems, "transfer_item.source", what + "source", item.source());
            check(problems, "transfer_item.destination", what + "destination", item.destination());
            check(problems, "transfer_item.transfer_mode", what + "mode", item.mode());
            check(problems, "transfer_item.checksum_method", what + "checksum method", item.checksumMethod());
            check(problems, "transfer_item.checksum", what + "checksum", item.checksum());
        }
        return tooLong(problems);
    }

    /** Why a value of the refusal does not fit its column, or {@code null} when all fit. */
    private static String tooLong(NotAuthorizedLog refusal, String agent) {
        List<String> problems = new ArrayList<>();
        check(problems, "auth_event.command_id", "request id", refusal.id());
        check(problems, "auth_event.originator_mq_user", "originator MQ user", refusal.mqmdUserId());
        check(problems, "auth_event.authority", "authority", refusal.authority());
        check(problems, "auth_event.agent", "agent", agent);
        return tooLong(problems);
    }

    private static String tooLong(List<String> problems) {
        return problems.isEmpty() ? null : "does not fit the database, not stored rather than cut: "
                + String.join("; ", problems);
    }

    static void check(List<String> problems, String column, String what, String value) {
        int width = COLUMN_WIDTHS.get(column);
        if (value != null && value.length() > width) {
            String start = value.substring(0, Math.min(40, value.length()));
            problems.add(what + " '" + start + "...' is " + value.length() + " characters, column " + column
                    + " holds " + width);
        }
    }

    private static Map<String, Integer> columnWidths() {
        Map<String, Integer> widths = new LinkedHashMap<>();
        widths.put("log_record.record_key", LogRecord.MAX_KEY_LENGTH);
        widths.put("log_record.transfer_id", 48);
        widths.put("log_record.log_action", 16);
        widths.put("log_record.agent_role", 32);
        widths.put("log_record.topic", 1024);
        widths.put("transfer.transfer_id", 48);
        widths.put("transfer.source_agent", 28);
        widths.put("transfer.source_qmgr", 48);
        widths.put("transfer.destination_agent", 28);
        widths.put("transfer.destination_qmgr", 48);
        widths.put("transfer.originator_user", 256);
        widths.put("transfer.originator_host", 256);
        widths.put("transfer.job_name", 256);
        widths.put("transfer.state", 16);
        widths.put("transfer_item.transfer_id", 48);
        widths.put("transfer_item.source", 4096);
        widths.put("transfer_item.destination", 4096);
        widths.put("transfer_item.transfer_mode", 16);
        widths.put("transfer_item.checksum_method", 16);
        widths.put("transfer_item.checksum", 128);
        widths.put("auth_event.action", 16);
        widths.put("auth_event.command_id", 64);
        widths.put("auth_event.originator_mq_user", 256);
        widths.put("auth_event.authority", 32);
        widths.put("auth_event.record_key", LogRecord.MAX_KEY_LENGTH);
        widths.put("auth_event.agent", 28);
        AutomationRows.widths(widths);
        return Map.copyOf(widths);
    }

    /**
     * Data exceptions (class 22: value too long, bad characters ...) and integrity violations (class
     * 23) are about the values of this record; everything else is about the database.
     */
    static boolean concernsThisRecordOnly(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith("22") || state.startsWith("23"));
    }

    // ---- reading

    private static StoredTransfer transferRow(ResultSet rs) throws SQLException {
        String supplement = rs.getString("supplement");
        Integer total = getInteger(rs, "total_items");
        Long bytes = getLong(rs, "bytes_sent");
        return new StoredTransfer(rs.getString("transfer_id"), rs.getString("source_agent"),
                rs.getString("source_qmgr"), rs.getString("destination_agent"), rs.getString("destination_qmgr"),
                rs.getString("originator_user"), rs.getString("originator_host"), rs.getString("job_name"),
                TransferState.valueOf(rs.getString("state")),
                getInteger(rs, "result_code"),
                supplement == null ? List.of() : Arrays.asList(supplement.split(SUPPLEMENT_SEPARATOR, -1)),
                getTime(rs, "start_time"), getTime(rs, "end_time"), total == null ? -1 : total,
                bytes == null ? -1 : bytes, List.of());
    }

    private static List<StoredItem> items(Connection c, String id) throws SQLException {
        List<StoredItem> items = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT item_index, source, source_size, destination, "
                + "destination_size, transfer_mode, checksum_method, checksum, result_code, supplement "
                + "FROM transfer_item WHERE transfer_id = ? ORDER BY item_index")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Long sourceSize = getLong(rs, "source_size");
                    Long destinationSize = getLong(rs, "destination_size");
                    items.add(new StoredItem(rs.getInt("item_index"), rs.getString("source"),
                            sourceSize == null ? -1 : sourceSize, rs.getString("destination"),
                            destinationSize == null ? -1 : destinationSize, rs.getString("transfer_mode"),
                            rs.getString("checksum_method"), rs.getString("checksum"), rs.getInt("result_code"),
                            rs.getString("supplement")));
                }
            }
        }
        return items;
    }

    // ---- connection

    private Connection connection() throws LogStoreException {
        if (closed) {
            throw new IllegalStateException(this + " is closed");
        }
        if (connection == null) {
            Connection c = null;
            try {
                c = factory.connect();
                c.setAutoCommit(false);
                c.setSchema(schema);
                connection = c;
            } catch (SQLException | IOException e) {
                closeQuietly(c);
                throw new LogStoreException("cannot connect to the logger database " + description + ": "
                        + e.getMessage(), e);
            }
        }
        return connection;
    }

    /**
     * Rolls back, drops the connection (a broken one is never reused; the next call reconnects) and
     * wraps the failure.
     */
    private LogStoreException unavailable(String what, SQLException e) {
        Connection c = connection;
        connection = null;
        if (c != null) {
            try {
                c.rollback();
            } catch (SQLException rollbackFailure) {
                e.addSuppressed(rollbackFailure);
            }
            closeQuietly(c);
        }
        return new LogStoreException(what + ": the logger database " + description + " is unavailable (SQL state "
                + e.getSQLState() + "): " + e.getMessage(), e);
    }

    private static void closeQuietly(Connection c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (SQLException ignored) {
            // Already failed: the connection is being abandoned and the original failure is reported.
        }
    }

    private static void checkSchema(String schema) {
        if (schema == null || !SCHEMA.matcher(schema).matches()) {
            throw new IllegalArgumentException("schema name '" + schema + "' is not valid: 1 to 63 characters from "
                    + "A-Z, a-z, 0-9 and '_', not starting with a digit");
        }
    }

    /** URLs may carry a password as a parameter; keep it out of messages. */
    static String redact(String url) {
        return Secrets.maskCredentials(url);
    }

    // ---- small JDBC helpers

    private static boolean exists(Connection c, String sql, String value) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, value);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** When it happened; a message without an action time counts as happening when it was received. */
    private static Instant actionTime(LogRecord record) {
        return record.log().time() != null ? record.log().time() : record.received();
    }

    static void setString(PreparedStatement ps, int i, String value) throws SQLException {
        if (value == null) {
            ps.setNull(i, Types.VARCHAR);
        } else {
            ps.setString(i, value);
        }
    }

    static void setInt(PreparedStatement ps, int i, Integer value) throws SQLException {
        if (value == null) {
            ps.setNull(i, Types.INTEGER);
        } else {
            ps.setInt(i, value);
        }
    }

    static void setLong(PreparedStatement ps, int i, Long value) throws SQLException {
        if (value == null) {
            ps.setNull(i, Types.BIGINT);
        } else {
            ps.setLong(i, value);
        }
    }

    static void setTime(PreparedStatement ps, int i, Instant value) throws SQLException {
        ps.setObject(i, OffsetDateTime.ofInstant(value, ZoneOffset.UTC));
    }

    private static Instant getTime(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    private static Integer getInteger(ResultSet rs, String column) throws SQLException {
        int value = rs.getInt(column);
        return rs.wasNull() ? null : value;
    }

    private static Long getLong(ResultSet rs, String column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? null : value;
    }
}
