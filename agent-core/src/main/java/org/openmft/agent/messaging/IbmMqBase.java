package org.openmft.agent.messaging;

import java.util.Hashtable;

import org.openmft.agent.config.QueueManagerEndpoint;
import org.openmft.agent.credentials.Credentials;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.agent.tls.ClientTlsContext;
import org.openmft.agent.tls.TlsClientSettings;

import com.ibm.mq.MQException;
import com.ibm.mq.MQQueueManager;
import com.ibm.mq.constants.CMQC;
import com.ibm.mq.constants.MQConstants;

/**
 * IBM MQ base-classes connections ({@link QueueManagerConnector#connectIbmMqBase()}), in a class
 * of their own: its {@code catch (MQException)} makes the JVM's verifier load IBM's class, so
 * {@link QueueManagerConnector} itself, which every process loads, must not hold it, or a
 * distribution without IBM's jar could not connect to Artemis either ({@link IbmMqClient}).
 */
final class IbmMqBase {
    private IbmMqBase() {
    }

    static MQQueueManager connect(QueueManagerEndpoint endpoint, Credentials credentials, ClientTlsContext tls,
            String description) throws QueueManagerException {
        Hashtable<String, Object> p = new Hashtable<>();
        if (endpoint.clientMode()) {
            p.put(CMQC.TRANSPORT_PROPERTY, CMQC.TRANSPORT_MQSERIES_CLIENT);
            p.put(CMQC.HOST_NAME_PROPERTY, endpoint.host());
            p.put(CMQC.PORT_PROPERTY, endpoint.port());
            p.put(CMQC.CHANNEL_PROPERTY, endpoint.channel());
            if (tls != null) {
                TlsClientSettings s = tls.settings();
                p.put(CMQC.SSL_CIPHER_SUITE_PROPERTY, s.ibmCipherSuite());
                s.ibmPeerName().ifPresent(name -> p.put(CMQC.SSL_PEER_NAME_PROPERTY, name));
                p.put(CMQC.SSL_FIPS_REQUIRED_PROPERTY, s.fipsRequired());
                p.put(CMQC.SSL_SOCKET_FACTORY_PROPERTY, tls.sslContext().getSocketFactory());
            }
        } else {
            p.put(CMQC.TRANSPORT_PROPERTY, CMQC.TRANSPORT_MQSERIES_BINDINGS);
        }
        if (credentials != null) {
            p.put(CMQC.USER_ID_PROPERTY, credentials.user());
            p.put(CMQC.PASSWORD_PROPERTY, credentials.password());
            p.put(CMQC.USE_MQCSP_AUTHENTICATION_PROPERTY, true);
        }
        p.put(CMQC.APPNAME_PROPERTY, "OpenMFT");
        try {
            return new MQQueueManager(endpoint.qmgrName(), p);
        } catch (MQException e) {
            if (e.getReason() == CMQC.MQRC_NOT_AUTHORIZED) {
                throw new QueueManagerException(description + " refused the login" + (credentials == null ? ""
                        : " of user '" + credentials.user() + "'") + " (MQRC 2035 MQRC_NOT_AUTHORIZED)",
                        QueueManagerException.CONFIGURATION, e);
            }
            throw new QueueManagerException("cannot connect to " + description + ": MQRC " + e.getReason() + " "
                    + MQConstants.lookupReasonCode(e.getReason()), QueueManagerException.UNAVAILABLE, e);
        }
    }
}
