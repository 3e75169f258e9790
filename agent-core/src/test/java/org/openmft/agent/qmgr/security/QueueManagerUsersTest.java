package org.openmft.agent.qmgr.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import org.apache.activemq.artemis.core.security.Role;
import org.apache.activemq.artemis.utils.PasswordMaskingUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.credentials.Credentials;
import org.openmft.agent.credentials.CredentialsFile;

/** The users and roles files, and the permissions derived from them, without a broker. */
class QueueManagerUsersTest {
    @TempDir
    Path dir;

    @Test
    void usersGetHashedPasswordsAgentRolesImplyAgentAndTheLastAdministratorStays() throws Exception {
        QueueManagerUsers users = QueueManagerUsers.of("QM1", dir);
        Credentials admin = users.initialize().orElseThrow();
        assertThat(users.initialize()).as("only once").isEmpty();
        assertThat(users.administrator()).contains(admin);
        assertThat(CredentialsFile.read(users.administratorCredentialsFile()).queueManager("QM1", "x"))
                .contains(admin);

        Credentials agent = users.addAgent("A.ONE", dir.resolve("a.xml"));
        assertThat(users.users().get("A.ONE")).containsExactlyInAnyOrder("agent", "agent.A.ONE");
        java.util.Properties hashes = new java.util.Properties();
        try (var in = Files.newBufferedReader(users.usersFile())) {
            hashes.load(in);
        }
        String stored = hashes.getProperty("A.ONE");
        assertThat(stored).startsWith("ENC(").doesNotContain(agent.password());
        assertThat(PasswordMaskingUtil.getHashProcessor(stored).compare(agent.password().toCharArray(), stored))
                .as("Artemis verifies what is stored").isTrue();

        assertThatThrownBy(() -> users.add("A.ONE", Set.of(), false)).hasMessageContaining("already exists");
        assertThatThrownBy(() -> users.add("bad name", Set.of(), false)).hasMessageContaining("not valid");
        assertThatThrownBy(() -> users.grant("A.ONE", "superuser")).hasMessageContaining("the roles are");
        assertThatThrownBy(() -> users.grant("A.ONE", "agent.a.one")).hasMessageContaining("upper case");
        users.grant("A.ONE", Permissions.REQUESTER);
        assertThat(users.revoke("A.ONE", "agent.A.ONE")).isTrue();
        assertThat(users.users().get("A.ONE")).containsExactly("requester");
        assertThatThrownBy(() -> users.remove(QueueManagerUsers.ADMINISTRATOR)).hasMessageContaining("last");
        assertThat(users.remove("A.ONE")).isTrue();
        assertThat(users.remove("A.ONE")).isFalse();
    }

    @Test
    void onlyAnAgentsOwnRoleConsumesFromItsQueuesAndDottedNamesGetExactSettings() {
        var all = Permissions.all(Set.of("admin", "agent", "agent.A.ONE", "requester", "agent.nonsense!"));
        assertThat(Permissions.agents(Set.of("agent.A.ONE", "agent.nonsense!", "agent"))).containsExactly("A.ONE");
        for (String q : QueueNames.agentQueues("A.ONE")) {
            Set<Role> roles = all.get(q);
            assertThat(roles).as(q).isNotNull();
            assertThat(roles.stream().filter(Role::isConsume).map(Role::getName))
                    .as(q).containsExactlyInAnyOrder("admin", "agent.A.ONE");
        }
        assertThat(all.get("SYSTEM.FTE.COMMAND.#").stream().filter(Role::isSend).map(Role::getName))
                .containsExactlyInAnyOrder("admin", "agent", "requester");
        assertThat(all.get("SYSTEM.FTE.COMMAND.#").stream().filter(Role::isConsume).map(Role::getName))
                .containsExactly("admin");
        assertThat(all.get("SYSTEM.FTE").stream().filter(Role::isSend).map(Role::getName))
                .as("only agents publish").containsExactlyInAnyOrder("admin", "agent");
        assertThat(all.get("SYSTEM.#")).extracting(Role::getName).containsExactly("admin");
    }
    @Test
    void authorityRolesGrantBrowseOrPutOnTheirAuthorityQueueAndNothingElse() {
        assertThat(Permissions.validateRole("SYSTEM.FTE.AUTHTRN1.SRC+browse")).isEqualTo("SYSTEM.FTE.AUTHTRN1.SRC+browse");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Permissions.validateRole("SYSTEM.FTE.AUTHTRN1.SRC+put"))
                .isInstanceOf(IllegalArgumentException.class);
        var all = Permissions.all(Set.of("SYSTEM.FTE.AUTHTRN1.SRC+browse", "SYSTEM.FTE.AUTHAGT1.SRC+put"));
        assertThat(Permissions.agents(Set.of("SYSTEM.FTE.AUTHTRN1.SRC+browse"))).containsExactly("SRC");
        Set<Role> trn = all.get("SYSTEM.FTE.AUTHTRN1.SRC");
        assertThat(trn.stream().filter(Role::isBrowse).map(Role::getName))
                .containsExactlyInAnyOrder("admin", "SYSTEM.FTE.AUTHTRN1.SRC+browse");
        assertThat(trn.stream().filter(r -> r.isSend() || r.isConsume()).map(Role::getName)).containsExactly("admin");
        Set<Role> agt = all.get("SYSTEM.FTE.AUTHAGT1.SRC");
        assertThat(agt.stream().filter(Role::isSend).map(Role::getName))
                .containsExactlyInAnyOrder("admin", "SYSTEM.FTE.AUTHAGT1.SRC+put");
        assertThat(agt.stream().filter(Role::isBrowse).map(Role::getName))
                .containsExactlyInAnyOrder("admin", "SYSTEM.FTE.AUTHAGT1.SRC+browse");
        for (String q : QueueNames.agentQueues("SRC")) {
            assertThat(all.get(q).stream().map(Role::getName)).as(q)
                    .noneMatch(name -> name.startsWith("SYSTEM.FTE.AUTH"));
        }
    }
}
