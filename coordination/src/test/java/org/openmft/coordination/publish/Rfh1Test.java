package org.openmft.coordination.publish;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

class Rfh1Test {

    @Test
    void aRetainedPublishCommandHasIbmsLayout() {
        byte[] body = "<x/>".getBytes(StandardCharsets.UTF_8);
        byte[] msg = Rfh1.publish("SYSTEM.FTE/Agents/A1", true, body);
        ByteBuffer b = ByteBuffer.wrap(msg);
        byte[] id = new byte[4];
        b.get(id);
        assertThat(new String(id, StandardCharsets.US_ASCII)).isEqualTo("RFH ");
        assertThat(b.getInt()).as("version").isEqualTo(1);
        int length = b.getInt();
        assertThat(length % 4).as("StrucLength is a multiple of 4").isZero();
        assertThat(b.getInt()).as("encoding").isEqualTo(273);
        assertThat(b.getInt()).as("CCSID").isEqualTo(1208);
        byte[] format = new byte[8];
        b.get(format);
        assertThat(new String(format, StandardCharsets.US_ASCII)).isEqualTo("MQSTR   ");
        assertThat(b.getInt()).as("flags").isZero();
        String names = new String(msg, 32, length - 32, StandardCharsets.UTF_8);
        assertThat(names.trim()).isEqualTo("MQPSCommand Publish MQPSTopic SYSTEM.FTE/Agents/A1 MQPSPubOpt RetainPub");
        assertThat(Arrays.copyOfRange(msg, length, msg.length)).isEqualTo(body);
    }

    @Test
    void aPlainPublishHasNoRetainOptionAndTopicsWithBlanksAreQuoted() {
        byte[] msg = Rfh1.publish("SYSTEM.FTE/Log/A B/1", false, new byte[0]);
        int length = ByteBuffer.wrap(msg, 8, 4).getInt();
        String names = new String(msg, 32, length - 32, StandardCharsets.UTF_8).trim();
        assertThat(names).isEqualTo("MQPSCommand Publish MQPSTopic \"SYSTEM.FTE/Log/A B/1\"");
        assertThat(msg).hasSize(length);
    }
}
