package org.openmft.agent.transfer;

import javax.jms.JMSException;
import javax.jms.Message;

/**
 * A destination-to-source protocol message, copied out of its JMS message by the REPLY dispatcher
 * so the source transfer's thread never touches another session's message.
 */
record Control(String type, int incarnation, long seq, long nextSeq, int item, int resultCode, String supplement,
        String destFile, String md5, long bytes, boolean checkpoint, boolean retry) {

    static Control of(Message m) throws JMSException {
        return new Control(m.getStringProperty(Wire.TYPE), intOr(m, Wire.INCARNATION, 0), longOr(m, Wire.SEQ, -1),
                longOr(m, Wire.NEXT_SEQ, -1), intOr(m, Wire.ITEM, -1), intOr(m, Wire.RESULT_CODE, 0),
                m.getStringProperty(Wire.SUPPLEMENT), m.getStringProperty(Wire.DEST_FILE),
                m.getStringProperty(Wire.MD5), longOr(m, Wire.ITEM_BYTES, 0),
                m.propertyExists(Wire.CHECKPOINT) && m.getBooleanProperty(Wire.CHECKPOINT),
                m.propertyExists(Wire.RETRY) && m.getBooleanProperty(Wire.RETRY));
    }

    static int intOr(Message m, String name, int dflt) throws JMSException {
        return m.propertyExists(name) ? m.getIntProperty(name) : dflt;
    }

    static long longOr(Message m, String name, long dflt) throws JMSException {
        return m.propertyExists(name) ? m.getLongProperty(name) : dflt;
    }
}
