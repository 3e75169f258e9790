/**
 * TLS for queue manager connections: client settings from IBM's {@code *Ssl*} keys
 * ({@link org.openmft.agent.tls.TlsClientSettings}), the client context that checks a queue
 * manager's certificate and words refusals for an MQ administrator
 * ({@link org.openmft.agent.tls.ClientTlsContext}), IBM's peer-name patterns, store passwords from
 * credentials files, and the private CA that {@code mft qmgr create --tls-generate} makes
 * ({@link org.openmft.agent.tls.CertificateAuthority}). Depends on no other package of ours.
 */
package org.openmft.agent.tls;
