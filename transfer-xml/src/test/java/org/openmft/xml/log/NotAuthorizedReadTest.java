package org.openmft.xml.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.openmft.xml.log.Publications.AWKWARD;
import static org.openmft.xml.log.Publications.SOURCE;
import static org.openmft.xml.log.Publications.START;
import static org.openmft.xml.log.Publications.TRANSFER_ID;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.openmft.xml.AgentRef;

/** NotAuthorized log messages: IBM's shape, ours after a write, and what is refused. */
class NotAuthorizedReadTest {
    private final PublicationWriter writer = new PublicationWriter();
    private final PublicationReader reader = new PublicationReader();

    @Test
    void ibmsDocumentedShapeWithoutAnAgentElementAndWithTheRequestEscaped() throws Exception {
        NotAuthorizedLog log = reader.readNotAuthorized(Publications.resource("ibm-not-authorized.xml"));

        assertThat(log).isEqualTo(new NotAuthorizedLog("3.00", "414d5120514d5f5041592020202020204a1b8e6520014c07",
                "sourceAgent", Instant.parse("2026-03-02T09:12:44.518Z"), null, "intruder", "administration", 53,
                List.of("BFGCH0083E: The user (intruder) does not have the authority (ADMINISTRATION) required to shut"
                        + " down agent 'PAY.SRC'.",
                        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<internal:request version=\"3.00\""
                                + " xmlns:internal=\"http://wmqfte.ibm.com/internal\">\n<internal:shutdown"
                                + " agent=\"PAY.SRC\" hostname=\"QM_PAY\" mode=\"controlled\"/>\n</internal:request>")));
    }

    static Stream<NotAuthorizedLog> refusals() {
        return Stream.of(
                new NotAuthorizedLog("6.00", TRANSFER_ID, "sourceAgent", START, SOURCE, "payroll", "transfer", 53,
                        List.of("BFGCH0083E: no", "<request/>")),
                // No user, no request, an empty id (a refused message without one), the other role.
                new NotAuthorizedLog("6.00", "", "destinationAgent", START, new AgentRef("BANK.DST", null), null,
                        "agent", 53, List.of("BFGCH0083E: no")),
                new NotAuthorizedLog("6.00", "id" + AWKWARD, "sourceAgent", START, null, "user&<\"'> é",
                        "administration", 53, List.of(AWKWARD, "")));
    }

    @ParameterizedTest
    @MethodSource("refusals")
    void oursSurviveAWriteAndARead(NotAuthorizedLog log) throws Exception {
        String xml = writer.write(log);
        assertThat(reader.readNotAuthorized(xml)).isEqualTo(log);
        assertThat(reader.readNotAuthorized(xml.getBytes(StandardCharsets.UTF_8))).isEqualTo(log);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // a transfer log is not a refusal
        "<transaction version='6.00' ID='x' agentRole='sourceAgent'><action time='2026-01-01T00:00:00Z'>started"
                + "</action></transaction>",
        "<notAuthorized version='6.00' ID='x' agentRole='sourceAgent'><authority>transfer</authority>"
                + "<status resultCode='53'/></notAuthorized>",
        "<notAuthorized version='6.00' ID='x' agentRole='sourceAgent'><action time='2026-01-01T00:00:00Z'>"
                + "not_authorized</action><status resultCode='53'/></notAuthorized>",
        "<notAuthorized version='6.00' ID='x' agentRole='sourceAgent'><action time='2026-01-01T00:00:00Z'>"
                + "not_authorized</action><authority> </authority><status resultCode='53'/></notAuthorized>",
        "<notAuthorized version='6.00' ID='x' agentRole='sourceAgent'><action time='2026-01-01T00:00:00Z'>"
                + "not_authorized</action><authority>transfer</authority></notAuthorized>",
        "<notAuthorized version='6.00' ID='x' agentRole='sourceAgent'><action time='2026-01-01T00:00:00Z'>"
                + "completed</action><authority>transfer</authority><status resultCode='53'/></notAuthorized>",
        "<notAuthorized version='6.00' agentRole='sourceAgent'><action time='2026-01-01T00:00:00Z'>"
                + "not_authorized</action><authority>transfer</authority><status resultCode='53'/></notAuthorized>",
        "<notAuthorized version='6.00' ID='x' agentRole='sourceAgent'><action time='yesterday'>"
                + "not_authorized</action><authority>transfer</authority><status resultCode='53'/></notAuthorized>",
        "<notAuthorized version='6.00' ID='x' agentRole='sourceAgent'><action time='2026-01-01T00:00:00Z'>"
                + "not_authorized</action><authority>transfer</authority><authority>agent</authority>"
                + "<status resultCode='53'/></notAuthorized>",
        "<notAuthorized version='6.00' ID='x' agentRole='sourceAgent'><action time='2026-01-01T00:00:00Z'>"
                + "not_authorized</action><authority>transfer</authority><status resultCode='x'/></notAuthorized>",
        "<notAuthorized version='6.00' ID='x' agentRole='sourceAgent'",
    })
    void whatCannotBeReadIsRefusedWithAReason(String xml) {
        assertThatThrownBy(() -> reader.readNotAuthorized(xml)).isInstanceOf(MalformedPublicationException.class)
                .hasMessageNotContaining("null");
    }
}
