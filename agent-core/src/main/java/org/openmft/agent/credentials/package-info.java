/**
 * Credentials for queue manager connections and stores: IBM MFT's {@code MQMFTCredentials.xml},
 * read with hostile-XML protection and refused when other users may read it. Depends on nothing
 * else in OpenMFT, so that configuration, TLS and messaging can all use it.
 */
package org.openmft.agent.credentials;
