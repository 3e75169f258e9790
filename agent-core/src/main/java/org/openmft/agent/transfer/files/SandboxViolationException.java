package org.openmft.agent.transfer.files;

import java.util.Objects;

/**
 * A path refused by a {@link Sandbox}: by the agent sandbox ({@code sandboxRoot}, reference §8.3)
 * outside every allowed root, inside an excluded ({@code !}) sub-tree, reached through a symbolic
 * link that leaves the sandbox, or containing a {@code ..} segment; by a user sandbox
 * ({@code userSandboxes}) outside its includes, inside an exclude, or because no sandbox applies
 * to the requester. Names the path and the rule that refused it.
 */
public final class SandboxViolationException extends PathRefusedException {
    private static final long serialVersionUID = 1L;

    private final Access access;
    private final String rule;

    /**
     * Creates the exception.
     *
     * @param message the complete user-facing message
     * @param path the path as the request gave it
     * @param access what the agent wanted to do
     * @param rule the sandbox rule that refused it: an excluded entry such as {@code !/tmp/private},
     *        the whole {@code sandboxRoot} value when the path is outside every root, or a
     *        description of a rule that always applies
     */
    public SandboxViolationException(String message, String path, Access access, String rule) {
        this(message, path, access, rule, DEFAULT_MESSAGE_ID);
    }

    /**
     * Creates the exception with its own message id.
     *
     * @param message the complete user-facing message, without the message id
     * @param path the path as the request gave it
     * @param access what the agent wanted to do
     * @param rule the sandbox rule that refused it
     * @param messageId the IBM-style id shown before the message, such as {@code BFGIO0056E}
     */
    public SandboxViolationException(String message, String path, Access access, String rule, String messageId) {
        super(message, path, messageId);
        this.access = Objects.requireNonNull(access, "access");
        this.rule = Objects.requireNonNull(rule, "rule");
    }

    /** @return what the agent wanted to do with the path */
    public Access access() {
        return access;
    }

    /** @return the rule that refused the path */
    public String rule() {
        return rule;
    }
}
