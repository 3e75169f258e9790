/**
 * IBM MFT's {@code UserSandboxes.xml}: the per-user sandboxes of an agent ({@code userSandboxes=true}),
 * read with the same hardening as requests ({@link org.openmft.xml.sandbox.UserSandboxesParser}) into
 * records ({@link org.openmft.xml.sandbox.UserSandboxesDocument}). What the patterns match is the
 * agent's business.
 */
package org.openmft.xml.sandbox;
