package org.openmft.coordination.publish;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The MQRFH (version 1) header of IBM MQ's queued publish/subscribe, which IBM MFT agents put in
 * front of every publication they send to the coordination queue manager's {@code SYSTEM.FTE}
 * queue (reference §3.2). Layout, all integers in the encoding the message descriptor states
 * (here big-endian, MQENC 273):
 * <pre>
 *   StrucId "RFH " | Version 1 | StrucLength | Encoding | CodedCharSetId | Format (8) | Flags 0 |
 *   NameValueString, blank-padded so that StrucLength is a multiple of 4
 * </pre>
 * followed by the publication itself (format MQSTR, UTF-8). The name/value string holds
 * {@code MQPSCommand Publish MQPSTopic <topic> [MQPSPubOpt RetainPub]}.
 */
final class Rfh1 {
    /** The message descriptor format naming an MQRFH header. */
    static final String FORMAT = "MQHRF   ";
    /** UTF-8. */
    static final int CCSID_UTF8 = 1208;
    /** Big-endian integers, IEEE floats, as Java writes them. */
    static final int ENCODING_NATIVE_JAVA = 273;
    private static final int FIXED_LENGTH = 32;

    private Rfh1() {
    }

    /** The header and body of a publish command for {@code topic}. */
    static byte[] publish(String topic, boolean retained, byte[] body) {
        StringBuilder nv = new StringBuilder("MQPSCommand Publish MQPSTopic ").append(quote(topic));
        if (retained) {
            nv.append(" MQPSPubOpt RetainPub");
        }
        byte[] names = nv.toString().getBytes(StandardCharsets.UTF_8);
        int length = FIXED_LENGTH + names.length;
        int padded = (length + 3) / 4 * 4;
        ByteBuffer header = ByteBuffer.allocate(padded).order(ByteOrder.BIG_ENDIAN);
        header.put("RFH ".getBytes(StandardCharsets.US_ASCII));
        header.putInt(1);
        header.putInt(padded);
        header.putInt(ENCODING_NATIVE_JAVA);
        header.putInt(CCSID_UTF8);
        header.put("MQSTR   ".getBytes(StandardCharsets.US_ASCII));
        header.putInt(0);
        header.put(names);
        while (header.hasRemaining()) {
            header.put((byte) ' ');
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(padded + body.length);
        out.writeBytes(header.array());
        out.writeBytes(body);
        return out.toByteArray();
    }

    /** Topic strings with blanks or quotes are quoted, quotes doubled, as MQRFH name/value strings require. */
    private static String quote(String value) {
        if (value.indexOf(' ') < 0 && value.indexOf('"') < 0) {
            return value;
        }
        return '"' + value.replace("\"", "\"\"") + '"';
    }
}
