package org.openmft.xml;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code <schedule>}, {@code <trigger>} and {@code <deleteScheduledTransfer>}: read, refused, written back. */
class ScheduleTriggerParserTest {
    private static final String O = Documents.ORIGINATOR;
    private static final String SET = "<transferSet><item>" + Documents.SOURCE + Documents.DESTINATION
            + "</item></transferSet>";

    private static TransferRequest parse(String schedule, String trigger) throws MalformedRequestException {
        return (TransferRequest) new RequestParser().parse(Documents.request(O + schedule
                + "<sourceAgent agent=\"S\"/><destinationAgent agent=\"D\"/>" + trigger + SET));
    }

    @Test
    void readsIbmsScheduleWithRepeatAndCount() throws Exception {
        TransferRequest r = parse("<schedule><submit timebase=\"admin\" timezone=\"Europe/London\">2030-01-01T21:00"
                + "</submit><repeat><frequency interval=\"minutes\">30</frequency><expireCount>5</expireCount></repeat>"
                + "</schedule>", "");
        assertThat(r.schedule()).isEqualTo(new TransferSchedule("admin", "Europe/London",
                LocalDateTime.of(2030, 1, 1, 21, 0), "minutes", 30, 5, null));
        assertThat(r.trigger()).isNull();
        // Written and read back unchanged.
        assertThat(new RequestParser().parse(new DocumentWriter().write(r))).isEqualTo(r);
    }

    @Test
    void readsExpireTimeAndSourceTimebase() throws Exception {
        TransferRequest r = parse("<schedule><submit timebase=\"source\">2030-01-01T21:00</submit><repeat>"
                + "<frequency interval=\"days\">1</frequency><expireTime>2030-02-01T00:00</expireTime></repeat>"
                + "</schedule>", "");
        assertThat(r.schedule().expireTime()).isEqualTo(LocalDateTime.of(2030, 2, 1, 0, 0));
        assertThat(r.schedule().timezone()).isNull();
        assertThat(new RequestParser().parse(new DocumentWriter().write(r))).isEqualTo(r);
    }

    @Test
    void readsTriggersOfBothKinds() throws Exception {
        TransferRequest r = parse("", "<trigger log=\"no\"><fileExist comparison=\"!=\" value=\"exist\">/in/go"
                + "</fileExist><fileSize comparison=\"&gt;=\" value=\"2\" units=\"KB\">/in/big</fileSize></trigger>");
        assertThat(r.trigger().log()).isFalse();
        assertThat(r.trigger().conditions()).containsExactly(
                new TransferTrigger.FileExist("!=", "exist", "/in/go"), new TransferTrigger.FileSize(2, "KB", "/in/big"));
        assertThat(((TransferTrigger.FileExist) r.trigger().conditions().get(0)).wantsFile()).isFalse();
        assertThat(((TransferTrigger.FileSize) r.trigger().conditions().get(1)).bytes()).isEqualTo(2048);
        assertThat(new RequestParser().parse(new DocumentWriter().write(r))).isEqualTo(r);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "<schedule><submit timebase='admin' timezone='Europe/London'>2030-13-01T21:00</submit></schedule>|submit|yyyy-MM-ddThh:mm",
        "<schedule><submit timebase='nope'>2030-01-01T21:00</submit></schedule>|submit|timebase",
        "<schedule><submit timebase='admin'>2030-01-01T21:00</submit></schedule>|submit|timezone",
        "<schedule><submit timebase='admin' timezone='Mars/Base'>2030-01-01T21:00</submit></schedule>|submit|Mars/Base",
        "<schedule><submit timebase='UTC'>2030-01-01T21:00</submit><repeat><frequency interval='fortnights'>1</frequency></repeat></schedule>|frequency|interval",
        "<schedule><submit timebase='UTC'>2030-01-01T21:00</submit><repeat><frequency interval='days'>0</frequency></repeat></schedule>|frequency|1 to",
        "<schedule><submit timebase='UTC'>2030-01-01T21:00</submit><repeat><frequency interval='days'>1</frequency><expireCount>-2</expireCount></repeat></schedule>|expireCount|1 to",
        "<schedule><submit timebase='UTC'>2030-01-01T21:00</submit><repeat><frequency interval='days'>1</frequency><expireTime>2029-01-01T00:00</expireTime></repeat></schedule>|schedule|before the start",
        "<schedule><submit timebase='UTC'>2030-01-01T21:00</submit><repeat><frequency interval='days'>1</frequency><expireTime>2031-01-01T00:00</expireTime><expireCount>2</expireCount></repeat></schedule>|expireCount|out of order",
    })
    void badSchedulesNameTheirPart(String schedule, String element, String why) {
        MalformedRequestException e = Documents.rejected(Documents.request(O + schedule.replace('\'', '"')
                + Documents.AGENTS + SET));
        assertThat(e.getMessage()).contains(element).contains(why);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "<trigger log='maybe'><fileExist comparison='=' value='exist'>/a</fileExist></trigger>|trigger|log",
        "<trigger><fileExist comparison='&lt;' value='exist'>/a</fileExist></trigger>|fileExist|comparison",
        "<trigger><fileExist comparison='=' value='there'>/a</fileExist></trigger>|fileExist|value",
        "<trigger><fileSize comparison='=' value='2'>/a</fileSize></trigger>|fileSize|comparison",
        "<trigger><fileSize comparison='&gt;=' value='2' units='TB'>/a</fileSize></trigger>|fileSize|units",
        "<trigger><fileSize comparison='&gt;=' value='x'>/a</fileSize></trigger>|fileSize|not a whole number",
        "<trigger log='yes'></trigger>|trigger|needs a <fileExist>",
        "<trigger><fileExist comparison='=' value='exist'></fileExist></trigger>|fileExist|must not be empty",
        "<trigger><other/></trigger>|other|unexpected element",
    })
    void badTriggersNameTheirPart(String trigger, String element, String why) {
        MalformedRequestException e = Documents.rejected(Documents.request(O + Documents.AGENTS
                + trigger.replace('\'', '"') + SET));
        assertThat(e.getMessage()).contains(element).contains(why);
    }

    @Test
    void readsAndWritesDeleteScheduledTransfer() throws Exception {
        String xml = "<request version=\"6.00\"><deleteScheduledTransfer><originator><delete><hostName>h</hostName>"
                + "<userID>u</userID></delete></originator><ID>5</ID></deleteScheduledTransfer></request>";
        DeleteScheduledTransferRequest d = (DeleteScheduledTransferRequest) new RequestParser().parse(xml);
        assertThat(d.id()).isEqualTo(5);
        assertThat(d.originator().userId()).isEqualTo("u");
        assertThat(new RequestParser().parse(new DocumentWriter().write(d))).isEqualTo(d);
        for (String bad : List.of("0", "x", "-1")) {
            assertThat(Documents.rejected(xml.replace("<ID>5", "<ID>" + bad)).getMessage()).contains("ID");
        }
    }
}
