/**
 * How OpenMFT's daemons start, retry and stop: {@link org.openmft.agent.lifecycle.AgentThreads}
 * (named threads that do not die unnoticed), {@link org.openmft.agent.lifecycle.Backoff} (the one
 * jittered retry policy), {@link org.openmft.agent.lifecycle.BoundedJoin} (a shutdown that says what
 * did not stop in time).
 */
package org.openmft.agent.lifecycle;
