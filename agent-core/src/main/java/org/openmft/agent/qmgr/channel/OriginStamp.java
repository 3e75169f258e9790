package org.openmft.agent.qmgr.channel;

import java.util.Map;

import org.apache.activemq.artemis.api.core.Message;
import org.apache.activemq.artemis.core.server.transformer.Transformer;
import org.openmft.agent.messaging.Routing;

/**
 * The transformer of every channel's bridge: before a message leaves for another queue manager, it
 * records who put it here and where, so that the far queue manager can give it that user (IBM MQ
 * keeps a message's user identifier across channels): the far side overwrites the JMSXUserID of
 * whatever arrives with the channel's own login.
 *
 * <p>A message put by a client of this queue manager gets this queue manager's validated user for
 * it, whatever properties the client set (a client cannot claim another user). A message passing
 * through from another queue manager ({@link InboundRouter#TRANSIT} as its validated user, which no
 * client can have) keeps the origin its first queue manager recorded, and its count of hops
 * ({@link InboundRouter#HOPS}), which a client's message starts without.
 *
 * <p>Made by the broker from its class name (a bridge's configuration is kept in the journal and
 * recovered at start), with this queue manager's name in the property {@value Channels#QMGR_PROPERTY}.
 */
public final class OriginStamp implements Transformer {
    private String localQMgr;

    /** For the broker, which calls {@link #init} next. */
    public OriginStamp() {
    }

    @Override
    public void init(Map<String, String> properties) {
        this.localQMgr = properties.get(Channels.QMGR_PROPERTY);
    }

    @Override
    public Message transform(Message m) {
        String validated = m.getValidatedUserID();
        if (InboundRouter.TRANSIT.equals(validated)) {
            return m;
        }
        m.removeProperty(InboundRouter.HOPS);
        if (validated == null) {
            m.removeProperty(Routing.ORIGIN_USER);
        } else {
            m.putStringProperty(Routing.ORIGIN_USER, validated);
        }
        m.putStringProperty(Routing.ORIGIN_QMGR, localQMgr);
        return m;
    }
}
