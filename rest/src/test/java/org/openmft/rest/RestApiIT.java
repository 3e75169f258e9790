package org.openmft.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openmft.rest.RestEstate.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.coordination.logger.TransferQuery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The REST API against a real estate in this JVM ({@link RestEstate}): a real embedded queue
 * manager, real agents moving real files, a real database logger; driven over HTTP with
 * {@link HttpClient}. One estate for all the tests of the class, which keeps its cost small.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RestApiIT {
    static final String BASE = MftResources.IBM_BASE;

    Path dir;
    RestEstate estate;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    final ObjectMapper mapper = new ObjectMapper();

    @BeforeAll
    void start(@TempDir Path temp) throws Exception {
        dir = temp;
        estate = new RestEstate(dir);
    }

    @AfterAll
    void stop() throws Exception {
        if (estate != null) {
            estate.close();
        }
    }

    HttpResponse<String> send(String method, String path, String body, String user, String password, boolean csrf)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(estate.baseUrl() + path))
                .timeout(Duration.ofSeconds(60))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (user != null) {
            b.header("Authorization", "Basic " + Base64.getEncoder().encodeToString((user + ":" + password)
                    .getBytes(StandardCharsets.UTF_8)));
        }
        if (csrf) {
            b.header(RestServer.CSRF_HEADER, "");
        }
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> as(String method, String path, String body) throws Exception {
        return send(method, path, body, estate.user.user(), estate.user.password(), true);
    }

    JsonNode json(HttpResponse<String> r) throws Exception {
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t)
                .startsWith("application/json"));
        return mapper.readTree(r.body());
    }

    String errorId(HttpResponse<String> r) throws Exception {
        return json(r).path("error").path(0).path("msgId").asText();
    }

    @Test
    void everyRequestNeedsAUserOfTheQueueManager() throws Exception {
        for (String path : List.of(BASE + "/agent", BASE + "/transfer", "/", "/dashboard/app.js")) {
            HttpResponse<String> none = send("GET", path, null, null, null, false);
            assertThat(none.statusCode()).as(path).isEqualTo(401);
            assertThat(errorId(none)).isEqualTo("MQWB0104E");
            assertThat(none.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v)
                    .startsWith("Basic realm="));
        }
        HttpResponse<String> wrong = send("GET", BASE + "/agent", null, estate.user.user(), "not-the-password",
                false);
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(errorId(wrong)).isEqualTo("MQWB0104E");
        HttpResponse<String> unknown = send("GET", BASE + "/agent", null, "mallory", estate.user.password(), false);
        assertThat(unknown.statusCode()).isEqualTo(401);
        assertThat(send("GET", "/", null, estate.user.user(), estate.user.password(), false).statusCode())
                .isEqualTo(200);
    }

    @Test
    void listsAndShowsTheAgentsOfTheCoordinationQueueManager() throws Exception {
        List<String> names = new ArrayList<>();
        await("SRC and DST listed", 30, () -> {
            try {
                names.clear();
                json(as("GET", BASE + "/agent", null)).path("agent").forEach(a -> names.add(a.path("name").asText()));
                return names.containsAll(List.of("SRC", "DST"));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        JsonNode src = json(as("GET", BASE + "/agent/src?attributes=*", null)).path("agent").path(0);
        assertThat(src.path("name").asText()).isEqualTo("SRC");
        assertThat(src.path("state").asText()).isEqualTo("ready");
        assertThat(src.path("qmgrConnection").path("qmgrName").asText()).isEqualTo(RestEstate.QMGR);
        assertThat(src.path("general").path("statusAge").asText()).matches("\\d+:\\d\\d:\\d\\d");
        HttpResponse<String> missing = as("GET", BASE + "/agent/NOSUCH", null);
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(errorId(missing)).isEqualTo("MQWB0408E");
    }

    /** After the limit of failed logins, even the right password is refused (429) from that address. */
    @Test
    void failedLoginsFromOneAddressAreLimited() throws Exception {
        RestConfig config = RestConfig.from(java.util.Map.of("httpPort", "0", "openmft.rest.maxFailedLogins", "2",
                "openmft.rest.failedLoginLockout", "600"));
        try (RestServer limited = new RestServer(config, estate.resources, estate.login)) {
            limited.start();
            String url = "http://127.0.0.1:" + limited.port() + BASE + "/transfer?limit=1";
            java.util.function.Function<String, HttpRequest> login = password -> HttpRequest.newBuilder(URI.create(
                    url)).header("Authorization", "Basic " + Base64.getEncoder().encodeToString((estate.user.user()
                            + ":" + password).getBytes(StandardCharsets.UTF_8))).build();
            assertThat(http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers
                    .ofString()).statusCode()).as("no credentials: no failure").isEqualTo(401);
            assertThat(http.send(login.apply(estate.user.password()), HttpResponse.BodyHandlers.ofString())
                    .statusCode()).isEqualTo(200);
            for (int i = 0; i < 2; i++) {
                assertThat(http.send(login.apply("guess-" + i), HttpResponse.BodyHandlers.ofString()).statusCode())
                        .isEqualTo(401);
            }
            HttpResponse<String> locked = http.send(login.apply(estate.user.password()),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(locked.statusCode()).isEqualTo(429);
            assertThat(errorId(locked)).isEqualTo(ApiError.TOO_MANY_LOGINS);
            assertThat(locked.headers().firstValue("Retry-After")).hasValueSatisfying(v -> assertThat(Long.parseLong(v))
                    .isBetween(1L, 600L));
        }
        // The estate's own server, with its own limit, still lets the user in.
        assertThat(as("GET", BASE + "/transfer?limit=1", null).statusCode()).isEqualTo(200);
    }

    /** A real directory monitor of agent SRC, created once through the API. */
    private synchronized void ensureMonitor() throws Exception {
        if (!monitorCreated) {
            Path watched = Files.createDirectories(dir.resolve("watched"));
            HttpResponse<String> created = as("POST", BASE + "/monitor", monitorBody("watcher", watched, """
                    "general": {"pollInterval": 5, "pollIntervalUnit": "minutes", "matchesPerTask": 3},
                    "resource": {"name": "%s", "recursionLevel": 2},
                    "triggerCondition": {"type": "matchAll", "includePattern": "*.trigger"},""".formatted(watched)));
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            monitorCreated = true;
        }
        await("monitor WATCHER listed", 30, () -> {
            try {
                return json(as("GET", BASE + "/monitor", null)).path("monitor").findValuesAsText("name")
                        .contains("WATCHER");
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
    }

    private boolean monitorCreated;

    @Test
    void listsAndShowsTheResourceMonitors() throws Exception {
        awaitAgents();
        ensureMonitor();
        JsonNode m = json(as("GET", BASE + "/monitor?agentName=S*&attributes=*", null)).path("monitor").path(0);
        assertThat(m.path("name").asText()).isEqualTo("WATCHER");
        assertThat(m.path("agentName").asText()).isEqualTo("SRC");
        assertThat(m.path("type").asText()).isEqualTo("directory");
        assertThat(m.path("state").asText()).isEqualTo("started");
        assertThat(m.path("general").path("pollInterval").asInt()).isEqualTo(5);
        assertThat(m.path("general").path("pollIntervalUnit").asText()).isEqualTo("minutes");
        assertThat(m.path("general").path("matchesPerTask").asInt()).isEqualTo(3);
        assertThat(m.path("resource").path("name").asText()).isEqualTo(dir.resolve("watched").toString());
        assertThat(m.path("resource").path("recursionLevel").asInt()).isEqualTo(2);
        JsonNode shown = json(as("GET", BASE + "/monitor/watcher", null)).path("monitor");
        assertThat(shown.findValuesAsText("name")).containsExactly("WATCHER");
        assertThat(shown.path(0).has("general")).as("default attributes only").isFalse();
        assertThat(json(as("GET", BASE + "/monitor?agentName=DST", null)).path("monitor")).isEmpty();
        assertThat(json(as("GET", BASE + "/monitor?state=stopped", null)).path("monitor")).isEmpty();
        HttpResponse<String> missing = as("GET", BASE + "/monitor/NOSUCH", null);
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(errorId(missing)).isEqualTo(ApiError.MONITOR_NOT_FOUND);
    }

    /** A monitor's body: {@code attributes} (general, resource, triggerCondition) and a transfer of each match to out-monitored/. */
    String monitorBody(String name, Path watched, String attributes) {
        return """
                {"name": "%s", "type": "directory", "agentName": "SRC", %s
                 "transferDefinition": {"sourceAgent": {"name": "SRC"}, "destinationAgent": {"name": "DST"},
                   "job": {"name": "rest-monitored"},
                   "transferSet": {"item": [{"source": {"name": "${FilePath}", "disposition": "delete"},
                     "destination": {"name": "%s/${FileName}", "actionIfExists": "overwrite"}}]}}}
                """.formatted(name, attributes, dir.resolve("out-monitored"));
    }

    @Test
    void createsAMonitorThatMovesADroppedFileAndDeletesIt() throws Exception {
        awaitAgents();
        Path drop = Files.createDirectories(dir.resolve("drop"));
        Files.createDirectories(dir.resolve("out-monitored"));
        String good = monitorBody("drop", drop, """
                "general": {"pollInterval": 1, "pollIntervalUnit": "seconds"},
                "resource": {"name": "%s"},
                "triggerCondition": {"type": "matchAll", "includePattern": "*.txt", "excludePattern": ""},"""
                .formatted(drop));
        HttpResponse<String> created = as("POST", BASE + "/monitor", good);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(created.headers().firstValue("Location")).hasValue(BASE + "/monitor/DROP");
        assertThat(json(created).path("monitor").path(0).path("agentName").asText()).isEqualTo("SRC");
        Files.writeString(drop.resolve("d.txt"), "dropped");
        await("the dropped file moved", 60, () -> Files.exists(dir.resolve("out-monitored/d.txt"))
                && !Files.exists(drop.resolve("d.txt")));
        assertThat(Files.readString(dir.resolve("out-monitored/d.txt"))).isEqualTo("dropped");
        JsonNode listed = json(as("GET", BASE + "/monitor/DROP?attributes=*", null)).path("monitor").path(0);
        assertThat(listed.path("general").path("matchesPerTask").asInt()).as("IBM's default").isEqualTo(2);
        assertThat(listed.path("resource").path("recursionLevel").asInt()).as("IBM's default").isEqualTo(1);

        // Refused: a duplicate, an unknown agent, a reader, and bodies that are wrong, each named.
        HttpResponse<String> duplicate = as("POST", BASE + "/monitor", good);
        assertThat(duplicate.statusCode()).as(duplicate.body()).isEqualTo(409);
        assertThat(json(duplicate).path("error").path(0).path("message").asText()).contains("DROP", "105");
        assertRefused(BASE + "/monitor", List.of(
                new Case("{\"name\": ", 400, "BFGRE0010E", "not valid JSON"),
                new Case(good.replace("\"SRC\"}", "\"NOSUCH\"}").replace("\"agentName\": \"SRC\",", ""), 404,
                        "MQWB0408E", "NOSUCH"),
                new Case(good.replace("\"DST\"}", "\"NOSUCH\"}"), 404, "MQWB0408E",
                        "NOSUCH (transferDefinition.destinationAgent)"),
                new Case(good.replace("\"agentName\": \"SRC\"", "\"agentName\": \"DST\""), 400, "BFGRE0010E",
                        "agentName DST"),
                new Case(good.replace("\"matchAll\"", "\"sometimes\""), 400, "BFGRE0010E",
                        "triggerCondition.type=sometimes"),
                new Case(good.replace("\"type\": \"directory\"", "\"type\": \"queue\""), 400, "BFGRE0010E",
                        "type=queue"),
                new Case(good.replace("\"pollInterval\": 1", "\"pollInterval\": 0"), 400, "BFGRE0010E",
                        "general.pollInterval=0"),
                new Case(good.replace("\"resource\"", "\"userProperties\": {\"k\": \"v\"}, \"resource\""), 400,
                        "BFGRE0010E", "userProperties"),
                new Case(good.replace("\"excludePattern\": \"\"", "\"fileSize\": 5"), 400, "BFGRE0010E",
                        "triggerCondition.fileSize"),
                new Case(good.replace("\"resource\": {", "\"rsource\": {"), 400, "BFGRE0010E",
                        "unknown attribute rsource")));
        HttpResponse<String> viewer = send("DELETE", BASE + "/monitor/DROP?agent=SRC", null, estate.viewer.user(),
                estate.viewer.password(), true);
        assertThat(errorId(viewer)).isEqualTo("MQWB0103E");

        // IBM's DELETE of its history, then of the monitor (the agent found from the listing).
        assertThat(as("DELETE", BASE + "/monitor/drop/history?agent=SRC", null).statusCode()).isEqualTo(204);
        HttpResponse<String> deleted = as("DELETE", BASE + "/monitor/drop", null);
        assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(204);
        await("the monitor's transfer stored", 30, () -> monitored() >= 1);
        assertThat(monitored()).as("one transfer for the one file").isEqualTo(1);
        await("DROP no longer listed", 30, () -> {
            try {
                return as("GET", BASE + "/monitor/DROP", null).statusCode() == 404;
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        HttpResponse<String> again = as("DELETE", BASE + "/monitor/DROP?agent=SRC", null);
        assertThat(again.statusCode()).isEqualTo(404);
        assertThat(errorId(again)).isEqualTo(ApiError.MONITOR_NOT_FOUND);
    }

    /** How many transfers of the monitors' job the logger stored. */
    private long monitored() {
        try {
            return estate.store.transfers(TransferQuery.latest(1000)).stream()
                    .filter(t -> "rest-monitored".equals(t.jobName())).count();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** A body the API refuses: with this status, message id and words in its message. */
    record Case(String body, int status, String msgId, String says) {
    }

    /** POSTs each case's body to {@code path} and checks the JSON error. */
    void assertRefused(String path, List<Case> cases) throws Exception {
        for (Case c : cases) {
            HttpResponse<String> r = as("POST", path, c.body());
            assertThat(r.statusCode()).as(c.body()).isEqualTo(c.status());
            assertThat(errorId(r)).as(c.body()).isEqualTo(c.msgId());
            assertThat(json(r).path("error").path(0).path("message").asText()).as(c.body()).contains(c.says());
        }
    }

    String transferBody(Path source, Path destination) {
        return """
                {"sourceAgent": {"name": "SRC"}, "destinationAgent": {"name": "DST"},
                 "job": {"name": "rest-it"},
                 "transferSet": {"item": [{"source": {"name": "%s"}, "destination": {"name": "%s",
                   "actionIfExists": "error"}, "mode": "binary", "checksum": "md5"}]}}
                """.formatted(source, destination);
    }

    @Test
    void createsATransferAndShowsItFromTheLoggersStore() throws Exception {
        awaitAgents();
        Path source = RestEstate.file(dir.resolve("in/a.bin"), 300_000);
        Path destination = dir.resolve("out/a.bin");
        HttpResponse<String> created = as("POST", BASE + "/transfer", transferBody(source, destination));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(202);
        String id = json(created).path("transfer").path(0).path("id").asText();
        assertThat(id).matches("[0-9A-F]{48}");
        assertThat(created.headers().firstValue("Location")).hasValue(BASE + "/transfer/" + id);

        awaitSuccessful(id);
        assertThat(Files.mismatch(source, destination)).isEqualTo(-1L);
        JsonNode t = json(as("GET", BASE + "/transfer/" + id + "?attributes=*", null)).path("transfer").path(0);
        assertThat(t.path("sourceAgent").path("name").asText()).isEqualTo("SRC");
        assertThat(t.path("originator").path("userId").asText()).isEqualTo(estate.user.user());
        assertThat(t.path("job").path("name").asText()).isEqualTo("rest-it");
        assertThat(t.path("statistics").path("numberOfFileSuccesses").asInt()).isEqualTo(1);
        assertThat(t.path("transferSet").path("item").path(0).path("destination").path("name").asText())
                .isEqualTo(destination.toString());

        JsonNode list = json(as("GET", BASE + "/transfer?agent=DST&state=successful&limit=10", null));
        assertThat(list.path("transfer").findValuesAsText("id")).contains(id);
        assertThat(json(as("GET", BASE + "/transfer?state=failed", null)).path("transfer").findValuesAsText("id"))
                .doesNotContain(id);

        // An ended transfer has nothing left to cancel; nothing is sent.
        HttpResponse<String> late = as("DELETE", BASE + "/transfer/" + id, null);
        assertThat(late.statusCode()).isEqualTo(409);

        // The client API reads the same history from the data directory's database logger.
        org.openmft.client.MftClient client = estate.client();
        assertThat(client.history("dst", 10)).anySatisfy(r -> {
            assertThat(r.transferId()).isEqualTo(id);
            assertThat(r.state()).isEqualTo("successful");
            assertThat(r.resultCode()).isZero();
            assertThat(r.user()).isEqualTo(estate.user.user());
            assertThat(r.items()).as("a listing has no items").isEmpty();
        });
        assertThat(client.history("NOBODY", 10)).isEmpty();
        assertThat(client.transfer(id.toLowerCase(java.util.Locale.ROOT))).hasValueSatisfying(r -> {
            assertThat(r.jobName()).isEqualTo("rest-it");
            assertThat(r.ended()).isTrue();
            assertThat(r.items()).singleElement().satisfies(i -> assertThat(i.destination())
                    .isEqualTo(destination.toString()));
        });
        assertThat(client.transfer("0".repeat(48))).isEmpty();
    }

    @Test
    void scheduledTransfersAreCreatedListedAndDeleted() throws Exception {
        awaitAgents();
        String schedules = MftResources.OPENMFT_BASE + "/schedule";
        Path source = RestEstate.file(dir.resolve("in/s.bin"), 1_000);
        String later = transferBody(source, dir.resolve("out/never-scheduled.bin")).replace("\"job\"",
                "\"scheduleTransfer\": {\"startTime\": \"2099-01-01T02:00\", \"timeBase\": \"utc\","
                        + " \"occurrenceInterval\": \"days\", \"occurrenceCount\": 3}, \"job\"");
        HttpResponse<String> created = as("POST", schedules, later);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(202);
        long id = json(created).path("schedule").path(0).path("id").asLong();
        assertThat(created.headers().firstValue("Location")).hasValue(schedules + "/SRC/" + id);
        await("schedule " + id + " listed", 30, () -> {
            try {
                return json(as("GET", schedules + "?agent=S*", null)).path("schedule").findValuesAsText("id")
                        .contains(String.valueOf(id));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        JsonNode one = json(as("GET", schedules + "/SRC/" + id, null)).path("schedule").path(0);
        assertThat(one.path("scheduleTransfer").path("occurrenceCount").asInt()).isEqualTo(3);
        assertThat(one.path("scheduleTransfer").path("startTime").asText()).startsWith("2099-01-01T02:00");
        assertThat(one.path("job").path("name").asText()).isEqualTo("rest-it");

        // Deleting needs the requester role, as creating does; an unknown id is 404.
        HttpResponse<String> viewer = send("DELETE", schedules + "/SRC/" + id, null, estate.viewer.user(),
                estate.viewer.password(), true);
        assertThat(viewer.statusCode()).isEqualTo(403);
        assertThat(as("DELETE", schedules + "/SRC/" + id, null).statusCode()).isEqualTo(200);
        HttpResponse<String> again = as("DELETE", schedules + "/SRC/" + id, null);
        assertThat(again.statusCode()).as(again.body()).isEqualTo(404);
        assertThat(errorId(again)).isEqualTo("BFGRE0017E");

        // IBM's way: POST transfer with scheduleTransfer; one due now runs at once.
        Path now = dir.resolve("out/scheduled-now.bin");
        String start = java.time.LocalDateTime.now(java.time.ZoneOffset.UTC).format(
                java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm"));
        HttpResponse<String> ibm = as("POST", BASE + "/transfer", transferBody(source, now).replace("\"job\"",
                "\"scheduleTransfer\": {\"startTime\": \"" + start + "\", \"timeBase\": \"UTC\"}, \"job\"")
                .replace("rest-it", "rest-it-scheduled"));
        assertThat(ibm.statusCode()).as(ibm.body()).isEqualTo(202);
        assertThat(json(ibm).path("schedule").path(0).path("id").asLong()).isPositive();
        // Awaited until stored, so that no other test counts it among the transfers stored meanwhile.
        await("the scheduled transfer stored as successful", 60, () -> {
            try {
                return json(as("GET", BASE + "/transfer?state=successful&limit=20", null))
                        .path("transfer").findValuesAsText("name").contains("rest-it-scheduled");
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        assertThat(Files.mismatch(source, now)).isEqualTo(-1L);

        // Bad schedules name the attribute; nothing is sent.
        for (String bad : List.of("{\"startTime\": \"2020-01-01T00:00\", \"timeBase\": \"UTC\"}",
                "{\"startTime\": \"soon\"}", "{\"startTime\": \"2099-01-01T00:00\", \"occurrenceCount\": 2}")) {
            HttpResponse<String> r = as("POST", schedules, transferBody(source, now).replace("\"job\"",
                    "\"scheduleTransfer\": " + bad + ", \"job\""));
            assertThat(r.statusCode()).as(bad).isEqualTo(400);
            assertThat(json(r).path("error").path(0).path("message").asText()).as(bad).contains("scheduleTransfer.");
        }
        HttpResponse<String> none = as("POST", schedules, transferBody(source, now));
        assertThat(none.statusCode()).isEqualTo(400);
        assertThat(errorId(as("DELETE", schedules + "/SRC/x", null))).isEqualTo("BFGRE0010E");
    }

    @Test
    void cancelGoesToTheAgentWhichAnswersForTheTransfer() throws Exception {
        awaitAgents();
        String unknown = "414d5120514d312020202020202020204f5c8d6520002a04";
        HttpResponse<String> withoutCsrf = send("DELETE", BASE + "/transfer/" + unknown + "?agent=SRC", null,
                estate.user.user(), estate.user.password(), false);
        assertThat(withoutCsrf.statusCode()).isEqualTo(403);
        assertThat(errorId(withoutCsrf)).isEqualTo("MQWB0100E");
        // The agent is asked, and answers that it does not know the transfer (IBM's result 26).
        HttpResponse<String> r = as("DELETE", BASE + "/transfer/" + unknown + "?agent=SRC", null);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(404);
        assertThat(errorId(r)).isEqualTo("MQWB0401E");
        assertThat(json(r).path("error").path(0).path("message").asText()).contains("not known to agent SRC");
        HttpResponse<String> notStored = as("DELETE", BASE + "/transfer/" + unknown, null);
        assertThat(notStored.statusCode()).isEqualTo(404);
    }

    @Test
    void badInputGetsAJsonErrorAndNothingIsDone() throws Exception {
        awaitAgents();
        int before = estate.store.transfers(TransferQuery.latest(1000)).size();
        Path source = RestEstate.file(dir.resolve("in/b.bin"), 10);
        String good = transferBody(source, dir.resolve("out/b.bin"));
        assertRefused(BASE + "/transfer", List.of(
                new Case("{\"sourceAgent\": {", 400, "BFGRE0010E", "not valid JSON"),
                new Case("[]", 400, "BFGRE0010E", "must be a JSON object"),
                new Case(good.replace("\"DST\"", "\"NOSUCH\""), 404, "MQWB0408E", "NOSUCH"),
                new Case(good.replace("\"transferSet\": {", "\"transferSet\": {\"priority\": 99999, "), 400,
                        "BFGRE0010E", "transferSet.priority=99999"),
                new Case(good.replace("\"mode\": \"binary\"", "\"mode\": \"morse\""), 400, "BFGRE0010E", "morse"),
                new Case(good.replace("\"job\"", "\"jbo\""), 400, "BFGRE0010E", "unknown attribute jbo"),
                new Case(good.replace("\"SRC\"", "\"BAD NAME!\""), 400, "BFGRE0010E", "sourceAgent.name")));
        HttpResponse<String> noCsrf = send("POST", BASE + "/transfer", good, estate.user.user(),
                estate.user.password(), false);
        assertThat(noCsrf.statusCode()).isEqualTo(403);
        // A user without the requester role may read but not submit.
        HttpResponse<String> viewer = send("POST", BASE + "/transfer", good, estate.viewer.user(),
                estate.viewer.password(), true);
        assertThat(viewer.statusCode()).isEqualTo(403);
        assertThat(errorId(viewer)).isEqualTo("MQWB0103E");
        assertThat(send("GET", BASE + "/transfer", null, estate.viewer.user(), estate.viewer.password(), false)
                .statusCode()).isEqualTo(200);
        assertThat(errorId(as("GET", BASE + "/transfer?limit=0", null))).isEqualTo("BFGRE0010E");
        assertThat(errorId(as("GET", BASE + "/transfer/xyz", null))).isEqualTo("BFGRE0010E");
        HttpResponse<String> notFound = as("GET", BASE + "/transfer/" + "0".repeat(48), null);
        assertThat(notFound.statusCode()).isEqualTo(404);
        assertThat(errorId(notFound)).isEqualTo("MQWB0401E");
        // Nothing reached an agent: a good request sent after the refused ones is acted on and stored
        // after anything they could have started (one agent, one command queue, one publication
        // stream), and it is the only transfer stored since; the refused destination was never written.
        HttpResponse<String> barrier = as("POST", BASE + "/transfer", transferBody(source, dir.resolve("out/after.bin")));
        assertThat(barrier.statusCode()).as(barrier.body()).isEqualTo(202);
        awaitSuccessful(json(barrier).path("transfer").path(0).path("id").asText());
        assertThat(estate.store.transfers(TransferQuery.latest(1000)).size()).isEqualTo(before + 1);
        assertThat(dir.resolve("out/b.bin")).doesNotExist();
    }

    /**
     * The dashboard in a real browser: Debian's headless Chromium driven by Selenium through Debian's
     * chromedriver (nothing is downloaded). Checks what the page shows, as text, and keeps a
     * screenshot in {@code target/dashboard.png}.
     */
    @Test
    void theDashboardShowsTheAgentsAndTheHistoryInARealBrowser() throws Exception {
        Path chromium = Path.of("/usr/bin/chromium");
        Path driverBinary = Path.of("/usr/bin/chromedriver");
        boolean present = Files.isExecutable(chromium) && Files.isExecutable(driverBinary);
        if (!present && "1".equals(System.getenv("OPENMFT_REQUIRE_BROWSER"))) {
            throw new AssertionError("OPENMFT_REQUIRE_BROWSER=1 but " + chromium + " or " + driverBinary + " is"
                    + " missing: apt-get install chromium chromium-driver");
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(present, "skipped: " + chromium + " or " + driverBinary
                + " is missing (apt-get install chromium chromium-driver; OPENMFT_REQUIRE_BROWSER=1 makes this fail)");
        awaitAgents();
        ensureMonitor();
        Path source = RestEstate.file(dir.resolve("in/browser.bin"), 50_000);
        Path destination = dir.resolve("out/browser.bin");
        HttpResponse<String> created = as("POST", BASE + "/transfer", transferBody(source, destination));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(202);
        String id = json(created).path("transfer").path(0).path("id").asText();
        awaitSuccessful(id);

        System.setProperty("webdriver.chrome.driver", driverBinary.toString());
        org.openqa.selenium.chrome.ChromeOptions options = new org.openqa.selenium.chrome.ChromeOptions();
        options.setBinary(chromium.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1280,1400");
        org.openqa.selenium.chrome.ChromeDriver driver = new org.openqa.selenium.chrome.ChromeDriver(options);
        try {
            // Every request of the page carries the user's Basic credentials, as after the browser's prompt.
            driver.executeCdpCommand("Network.enable", java.util.Map.of());
            driver.executeCdpCommand("Network.setExtraHTTPHeaders", java.util.Map.of("headers", java.util.Map.of(
                    "Authorization", "Basic " + Base64.getEncoder().encodeToString((estate.user.user() + ":"
                            + estate.user.password()).getBytes(StandardCharsets.UTF_8)))));
            driver.get(estate.baseUrl() + "/");
            // Both ready once the transfer's end is published: the publication follows the
            // transfer's log entry (within agentStatusPublishRateLimit, 1 s here), so it is awaited.
            await("both agents shown ready", 30, () -> text(driver, "#agents tbody").lines()
                    .filter(row -> (row.startsWith("SRC ") || row.startsWith("DST ")) && row.contains("ready"))
                    .count() == 2);
            await("the monitor shown", 30, () -> text(driver, "#monitors tbody").contains("WATCHER"));
            assertThat(text(driver, "#monitors tbody")).contains("SRC").contains("directory").contains("started")
                    .contains("5 minutes");
            await("the transfer shown in the history", 30, () -> text(driver, "#history tbody").contains(id));
            // The page redraws the history every 10 s: a row found just before a redraw is stale, so
            // finding, reading and clicking it is tried again until one attempt sees the same row throughout.
            String[] rowText = new String[1];
            await("the transfer's history row clicked", 30, () -> {
                try {
                    org.openqa.selenium.WebElement historyRow = driver.findElements(org.openqa.selenium.By
                            .cssSelector("#history tbody tr")).stream().filter(r -> r.getText().contains(id))
                            .findFirst().orElseThrow();
                    rowText[0] = historyRow.getText();
                    historyRow.click();
                    return true;
                } catch (org.openqa.selenium.StaleElementReferenceException e) {
                    return false;
                }
            });
            assertThat(rowText[0]).contains("successful").contains("SRC").contains("DST");
            await("the transfer's items shown", 30, () -> text(driver, "#items tbody").contains(destination
                    .toString()));
            assertThat(text(driver, "#detail-summary")).contains("successful").contains(estate.user.user());
            // The history filter asks the server again: no failed transfer exists.
            driver.findElement(org.openqa.selenium.By.cssSelector("#filters select[name=state] option[value=failed]"))
                    .click();
            driver.findElement(org.openqa.selenium.By.cssSelector("#filters button")).click();
            await("the filtered history", 30, () -> !text(driver, "#history tbody").contains(id));
            assertThat(text(driver, "#problem")).isEmpty();
            Path shot = Path.of("target", "dashboard.png");
            Files.createDirectories(shot.getParent());
            Files.write(shot, driver.getScreenshotAs(org.openqa.selenium.OutputType.BYTES));
            assertThat(Files.size(shot)).isPositive();
        } finally {
            driver.quit();
        }
    }

    private static String text(org.openqa.selenium.WebDriver driver, String css) {
        List<org.openqa.selenium.WebElement> found = driver.findElements(org.openqa.selenium.By.cssSelector(css));
        return found.isEmpty() ? "" : found.get(0).getText();
    }

    /** The progress publications of running transfers are served as they arrive. */
    @Test
    void liveProgressComesFromTheProgressPublications() throws Exception {
        String id = "414d5120514d3120202020202020202000000000000000aa";
        org.openmft.xml.AgentRef src = new org.openmft.xml.AgentRef("SRC", RestEstate.QMGR);
        org.openmft.xml.AgentRef dst = new org.openmft.xml.AgentRef("DST", RestEstate.QMGR);
        await("the progress subscription", 30, estate.progress::subscribed);
        try (jakarta.jms.Connection c = org.openmft.agent.messaging.QueueManagerConnector.forAgent(
                estate.coordination().endpoint(), null).connect()) {
            jakarta.jms.Session s = c.createSession(false, jakarta.jms.Session.AUTO_ACKNOWLEDGE);
            try (jakarta.jms.MessageProducer p = s.createProducer(s.createTopic(
                    org.openmft.agent.messaging.Publications.TOPIC))) {
                for (long sent : new long[] {1_000_000, 3_000_000}) {
                    jakarta.jms.TextMessage m = s.createTextMessage(new org.openmft.xml.log.PublicationWriter().write(
                            new org.openmft.xml.log.TransferProgress("4.00", id, src, dst, java.time.Instant.now(),
                                    sent, 2, 1, 2, sent, 4_000_000, "/data/big.bin", "/in/big.bin")));
                    m.setStringProperty(org.openmft.agent.messaging.Publications.TOPIC_STRING_PROPERTY,
                            org.openmft.agent.messaging.Publications.transferProgress("SRC", id));
                    p.send(m);
                }
            }
        }
        await("the newest progress served", 30, () -> {
            try {
                JsonNode all = json(as("GET", MftResources.OPENMFT_BASE + "/progress", null)).path("progress");
                for (JsonNode p : all) {
                    if (p.path("id").asText().equalsIgnoreCase(id) && p.path("bytesSent").asLong() == 3_000_000) {
                        assertThat(p.path("currentSource").asText()).isEqualTo("/data/big.bin");
                        assertThat(p.path("totalItems").asInt()).isEqualTo(2);
                        assertThat(p.path("sourceAgent").asText()).isEqualTo("SRC");
                        return true;
                    }
                }
                return false;
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
    }

    /** With a key store the server speaks HTTPS only; credentials are still required. */
    @Test
    void withAKeyStoreTheApiIsServedOverTlsOnly() throws Exception {
        java.time.Instant now = java.time.Instant.now();
        org.openmft.agent.tls.CertificateAuthority ca = org.openmft.agent.tls.CertificateAuthority.create(
                new javax.security.auth.x500.X500Principal("CN=REST test CA"), now.minusSeconds(60),
                now.plus(Duration.ofDays(1)));
        Path store = dir.resolve("tls/rest.p12");
        Path password = dir.resolve("tls/rest.pw");
        Files.createDirectories(store.getParent());
        String secret = org.openmft.agent.tls.CertificateAuthority.newPassword();
        ca.issue(new javax.security.auth.x500.X500Principal("CN=127.0.0.1"), List.of("127.0.0.1", "localhost"),
                now.minusSeconds(60), now.plus(Duration.ofDays(1)), true, false).store(store, "rest", secret);
        org.openmft.agent.tls.CertificateAuthority.writePasswordFile(password, secret);
        RestConfig config = RestConfig.from(java.util.Map.of("httpsPort", "0", "openmft.rest.keyStore",
                store.toString(), "openmft.rest.keyStoreCredentialsFile", password.toString()));
        try (RestServer tls = new RestServer(config, estate.resources, estate.login)) {
            tls.start();
            java.security.KeyStore trust = java.security.KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("ca", ca.certificate());
            javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance(
                    javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            javax.net.ssl.SSLContext ssl = javax.net.ssl.SSLContext.getInstance("TLS");
            ssl.init(null, tmf.getTrustManagers(), null);
            HttpClient https = HttpClient.newBuilder().sslContext(ssl).connectTimeout(Duration.ofSeconds(10)).build();
            String url = "https://127.0.0.1:" + tls.port() + BASE + "/transfer?limit=1";
            HttpResponse<String> anonymous = https.send(HttpRequest.newBuilder(URI.create(url)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(anonymous.statusCode()).isEqualTo(401);
            HttpResponse<String> ok = https.send(HttpRequest.newBuilder(URI.create(url)).header("Authorization",
                    "Basic " + Base64.getEncoder().encodeToString((estate.user.user() + ":" + estate.user.password())
                            .getBytes(StandardCharsets.UTF_8))).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
            assertThat(ok.sslSession()).hasValueSatisfying(session -> assertThat(session.getProtocol())
                    .isIn("TLSv1.3", "TLSv1.2"));
        }
    }

    private void awaitSuccessful(String id) throws Exception {
        await("transfer " + id + " stored as successful", 60, () -> {
            try {
                HttpResponse<String> r = as("GET", BASE + "/transfer/" + id, null);
                return r.statusCode() == 200 && json(r).path("transfer").path(0).path("status").path("state")
                        .asText().equals("successful");
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
    }

    private void awaitAgents() throws Exception {
        await("SRC and DST listed", 30, () -> {
            try {
                List<String> names = json(as("GET", BASE + "/agent", null)).path("agent").findValuesAsText("name");
                return names.containsAll(List.of("SRC", "DST"));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
    }
}
