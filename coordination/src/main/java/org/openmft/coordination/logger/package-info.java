/**
 * Where a logger keeps the transfer log messages it receives from {@code SYSTEM.FTE/Log/#}, and
 * where {@code mft transfer list/show} reads them back: {@link org.openmft.coordination.logger.LogStore}
 * with its two implementations, {@link org.openmft.coordination.logger.JdbcLogStore} (H2 or
 * PostgreSQL, schema by Flyway) and {@link org.openmft.coordination.logger.FileLogStore} (IBM's
 * stand-alone file logger format). The JMS side (subscription, transactions, reject queue) lives
 * elsewhere and calls {@link org.openmft.coordination.logger.LogStore#storeAll} once per transaction.
 */
package org.openmft.coordination.logger;
