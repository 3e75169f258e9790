package org.openmft.agent.monitor;

import java.util.Map;
import java.util.Objects;

/**
 * A message as one poll of a queue monitor browsed it (the message stays on the queue).
 *
 * @param messageId its message id, without JMS's {@code ID:} prefix
 * @param groupId its group id ({@code JMSXGroupID}), or {@code null} outside a group
 * @param lastInGroup whether it is the last of its group ({@code JMS_IBM_Last_Msg_In_Group}, as IBM
 *     MQ's JMS maps {@code MQMF_LAST_MSG_IN_GROUP})
 * @param encoding its encoding ({@code JMS_IBM_Encoding}), or {@code null} when it has none
 * @param properties its user properties (IBM's {@code usr.} folder), by name without {@code usr.}
 */
public record QueueMessage(String messageId, String groupId, boolean lastInGroup, String encoding,
        Map<String, String> properties) {
    /** Validates; the properties are copied. */
    public QueueMessage {
        Objects.requireNonNull(messageId, "messageId");
        properties = Map.copyOf(properties);
    }

    /** @return the group it completes or belongs to: its group id, or its own id outside a group */
    public String group() {
        return groupId == null ? messageId : groupId;
    }
}
