/**
 * Resource monitors (IBM's {@code fteCreateMonitor}): directory monitors that poll a directory
 * (and queue monitors that browse a queue: {@link org.openmft.agent.monitor.QueueTriggerEvaluator}),
 * decide which files trigger ({@link org.openmft.agent.monitor.TriggerEvaluator}, pure), put the
 * task, its {@code ${...}} variables substituted ({@link org.openmft.agent.monitor.TaskVariables},
 * pure), on the agent's own COMMAND queue, and keep each monitor's definition and history on the
 * agent's EVENT queue ({@link org.openmft.agent.monitor.MonitorStore}) in the same transaction as
 * the tasks, so a file triggers exactly once across restarts and kill -9.
 */
package org.openmft.agent.monitor;
