/**
 * Transfer templates kept as IBM keeps them, retained on the coordination queue manager at
 * {@code SYSTEM.FTE/Templates/<id>}: {@link org.openmft.coordination.template.TemplateStore}
 * saves, reads and deletes them for the template commands.
 */
package org.openmft.coordination.template;
