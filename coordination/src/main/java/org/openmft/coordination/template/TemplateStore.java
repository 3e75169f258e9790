package org.openmft.coordination.template;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;

import org.openmft.agent.config.CoordinationConfig;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.messaging.Publications;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.coordination.publish.CoordinationPublisher;
import org.openmft.coordination.publish.Publication;
import org.openmft.coordination.query.AgentDirectory;
import org.openmft.coordination.query.AgentNamePattern;
import org.openmft.coordination.query.RetainedPublications;
import org.openmft.xml.MalformedRequestException;
import org.openmft.xml.RequestParser;
import org.openmft.xml.TemplateParser;
import org.openmft.xml.TemplateWriter;
import org.openmft.xml.TransferTemplate;

/**
 * Transfer templates where IBM keeps them: each one a retained publication on the coordination
 * queue manager, topic string {@code SYSTEM.FTE/Templates/<id>} (reference §2), for
 * fteCreateTemplate, fteListTemplates, fteDeleteTemplates and {@code fteCreateTransfer --template}.
 * Saving publishes the document retained (replacing a template means publishing under its id
 * again, so readers see the old or the new one, never neither); deleting replaces the retained
 * publication with an empty one, as IBM does.
 *
 * <p>Reading takes every retained template afresh through a short-lived subscription (see
 * {@link RetainedPublications}). A retained publication that is not a valid template, or whose id
 * is not its topic's last level, is skipped and reported in {@link Listing#skipped()} naming its
 * topic, so that one bad publication hides nothing else. Names are matched exactly (case
 * included) by {@link #named}; patterns ({@code *}, {@code ?}, any case) by {@link #matching}.
 *
 * <p>Two commands creating the same name at the same moment can both succeed, making two
 * templates of that name: nothing on the queue manager serialises them. Thread-safe: holds no
 * connection between calls.
 */
public final class TemplateStore {
    /** The topic under which templates are retained, as IBM names it. */
    public static final String TOPIC_ROOT = Publications.ROOT + "/Templates";

    private final QueueManagerConnector connector;
    private final MessagingProvider provider;
    private final RetainedPublications retained;
    private final TemplateParser parser = new TemplateParser();

    /**
     * @param connector the coordination queue manager
     * @param provider its provider, which decides how publications travel
     */
    public TemplateStore(QueueManagerConnector connector, MessagingProvider provider) {
        this.connector = connector;
        this.provider = provider;
        this.retained = new RetainedPublications(connector, AgentDirectory.FIRST_WAIT, AgentDirectory.QUIET,
                AgentDirectory.READ_LIMIT, 100_000, RequestParser.DEFAULT_MAX_DOCUMENT_BYTES);
    }

    /**
     * The store of the coordination queue manager of a {@code coordination.properties}, reached as
     * commands reach it (a bindings Artemis queue manager of this host through its loopback listener).
     *
     * @param config the coordination configuration
     * @param qmgrsDirectory where this host's embedded queue managers are defined
     * @return the store
     * @throws QueueManagerException (exit code 75) when a bindings coordination queue manager is not
     *     defined on this host
     */
    public static TemplateStore forCoordination(CoordinationConfig config, Path qmgrsDirectory)
            throws QueueManagerException {
        return new TemplateStore(QueueManagerConnector.forCommand(config.endpoint(), qmgrsDirectory, null),
                config.provider());
    }

    /**
     * @param id a template id
     * @return {@code SYSTEM.FTE/Templates/<id>}
     */
    public static String topic(String id) {
        return TOPIC_ROOT + "/" + id;
    }

    /**
     * The templates read at one moment, sorted by name (then id), and the retained publications
     * skipped as not valid templates.
     *
     * @param templates the valid templates
     * @param skipped one line per skipped publication, naming its topic and what is wrong
     */
    public record Listing(List<TransferTemplate> templates, List<String> skipped) {
        /** Copies the lists. */
        public Listing {
            templates = List.copyOf(templates);
            skipped = List.copyOf(skipped);
        }

        /**
         * @param name a template name, exactly
         * @return the templates of that name (normally one)
         */
        public List<TransferTemplate> named(String name) {
            return templates.stream().filter(t -> t.name().equals(name)).toList();
        }

        /**
         * @param patterns fteListTemplates patterns ({@code *}, {@code ?}, any case); none for all
         * @return the templates matching any of them
         */
        public List<TransferTemplate> matching(List<String> patterns) {
            if (patterns == null || patterns.isEmpty()) {
                return templates;
            }
            List<AgentNamePattern> compiled = patterns.stream().map(AgentNamePattern::of).toList();
            return templates.stream().filter(t -> compiled.stream().anyMatch(p -> p.matches(t.name()))).toList();
        }
    }

    /**
     * Reads every template.
     *
     * @return the templates and what was skipped
     * @throws QueueManagerException (exit code 75) when the coordination queue manager cannot be read
     */
    public Listing read() throws QueueManagerException {
        List<TransferTemplate> templates = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (Map.Entry<String, RetainedPublications.Body> e : retained.read(TOPIC_ROOT + "/+").entrySet()) {
            String topic = e.getKey();
            RetainedPublications.Body body = e.getValue();
            if (body.empty()) {
                continue; // deleted
            }
            String id = topic.substring(topic.lastIndexOf('/') + 1);
            try {
                TransferTemplate t = body.text() != null ? parser.parse(body.text()) : parser.parse(body.bytes());
                if (!t.id().equals(id)) {
                    skipped.add(topic + ": the template's id " + t.id() + " is not its topic's " + id);
                } else {
                    templates.add(t);
                }
            } catch (MalformedRequestException ex) {
                skipped.add(topic + ": not a valid template: " + ex.getMessage());
            }
        }
        templates.sort(Comparator.comparing(TransferTemplate::name, String.CASE_INSENSITIVE_ORDER)
                .thenComparing(TransferTemplate::name).thenComparing(TransferTemplate::id));
        return new Listing(templates, skipped);
    }

    /**
     * One template by its exact name.
     *
     * @param name the name
     * @return the template, or empty when there is none
     * @throws QueueManagerException (exit code 75) when the coordination queue manager cannot be read
     */
    public Optional<TransferTemplate> find(String name) throws QueueManagerException {
        return read().named(name).stream().findFirst();
    }

    /**
     * Publishes a template retained on its topic, creating it or replacing the one with its id.
     *
     * @param template the template
     * @throws QueueManagerException (exit code 75) when the coordination queue manager cannot be reached
     */
    public void save(TransferTemplate template) throws QueueManagerException {
        publish(template.id(), new TemplateWriter().write(template), "save template " + template.name());
    }

    /**
     * Deletes a template: its retained publication is replaced by an empty one.
     *
     * @param template the template
     * @throws QueueManagerException (exit code 75) when the coordination queue manager cannot be reached
     */
    public void delete(TransferTemplate template) throws QueueManagerException {
        publish(template.id(), "", "delete template " + template.name());
    }

    private void publish(String id, String body, String what) throws QueueManagerException {
        try (Connection connection = connector.connect()) {
            // STATUS is the retained, persistent kind: what a template needs too.
            CoordinationPublisher.publish(connection, provider, new Publication(Publication.Kind.STATUS, topic(id),
                    body, "template:" + id + ":" + System.currentTimeMillis()));
        } catch (JMSException e) {
            throw new QueueManagerException("cannot " + what + " on " + connector.description() + ": "
                    + ProviderErrors.describe(e), QueueManagerException.UNAVAILABLE, e);
        }
    }

    /** @return the queue manager, for messages */
    public String description() {
        return connector.description();
    }
}
