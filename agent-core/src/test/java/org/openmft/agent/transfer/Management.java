package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.activemq.artemis.api.core.client.ActiveMQClient;
import org.apache.activemq.artemis.api.core.client.ClientMessage;
import org.apache.activemq.artemis.api.core.client.ClientRequestor;
import org.apache.activemq.artemis.api.core.client.ClientSession;
import org.apache.activemq.artemis.api.core.client.ClientSessionFactory;
import org.apache.activemq.artemis.api.core.client.ServerLocator;
import org.apache.activemq.artemis.api.core.management.ManagementHelper;
import org.openmft.agent.credentials.Credentials;

/** Calls an operation of a harness's queue manager through its management API, as its administrator would. */
final class Management {
    private Management() {
    }

    /**
     * @param resource  e.g. {@code ResourceNames.QUEUE + name} or {@code ResourceNames.BROKER}
     * @param operation the operation's name
     * @param params    its parameters
     */
    static void invoke(TransferHarness h, String resource, String operation, Object... params) throws Exception {
        Credentials login = h.qm.administrator().orElseThrow();
        try (ServerLocator locator = ActiveMQClient.createServerLocator(h.admin.artemisLocatorUrl());
                ClientSessionFactory factory = locator.createSessionFactory();
                ClientSession session = factory.createSession(login.user(), login.password(), false, true, true,
                        false, 0)) {
            session.start();
            ClientRequestor requestor = new ClientRequestor(session, "activemq.management");
            ClientMessage m = session.createMessage(false);
            ManagementHelper.putOperationInvocation(m, resource, operation, params);
            ClientMessage answer = requestor.request(m, 10_000);
            assertThat(answer).as("the management answer").isNotNull();
            assertThat(ManagementHelper.hasOperationSucceeded(answer)).as("%s %s", operation,
                    ManagementHelper.getResult(answer)).isTrue();
        }
    }
}
