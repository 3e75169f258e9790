package org.openmft.agent.credentials;

import java.util.Objects;

/**
 * A user and password for a queue manager connection: Artemis's login, IBM MQ's MQCSP. The password
 * is never printed: {@link #toString} masks it.
 *
 * @param user     the user id, not empty
 * @param password the password, possibly empty
 */
public record Credentials(String user, String password) {

    /** Checks that there is a user. */
    public Credentials {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        if (user.isEmpty()) {
            throw new IllegalArgumentException("a user id is required");
        }
    }

    @Override
    public String toString() {
        return "Credentials[user=" + user + ", password=****]";
    }
}
