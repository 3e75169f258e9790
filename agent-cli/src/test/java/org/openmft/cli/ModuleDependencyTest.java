package org.openmft.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * The module dependencies written down in docs/architecture.md, checked:
 * transfer-xml &lt;- agent-core &lt;- coordination &lt;- client &lt;- rest &lt;- agent-cli (the REST API sends
 * requests through the client API, so that there is one implementation; the client knows nothing of
 * the REST API), and only the CLI has a logging backend or ends the JVM.
 */
class ModuleDependencyTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.openmft");

    @Test
    void transferXmlDependsOnNothingOfOurs() {
        noClasses().that().resideInAPackage("org.openmft.xml..")
                .should().dependOnClassesThat().resideInAnyPackage("org.openmft.agent..", "org.openmft.coordination..",
                        "org.openmft.client..", "org.openmft.cli..")
                .check(CLASSES);
    }

    @Test
    void agentCoreDoesNotDependOnCoordinationOrTheCli() {
        noClasses().that().resideInAPackage("org.openmft.agent..")
                .should().dependOnClassesThat().resideInAnyPackage("org.openmft.coordination..", "org.openmft.client..",
                        "org.openmft.cli..")
                .check(CLASSES);
    }

    @Test
    void coordinationDoesNotDependOnTheCli() {
        // The coordination module has no classes yet; the rule holds for those to come.
        noClasses().that().resideInAPackage("org.openmft.coordination..")
                .should().dependOnClassesThat().resideInAnyPackage("org.openmft.client..", "org.openmft.cli..")
                .allowEmptyShould(true)
                .check(CLASSES);
    }

    @Test
    void theRestApiDependsOnThePublicClientApiAndBelowOnly() {
        noClasses().that().resideInAPackage("org.openmft.rest..")
                .should().dependOnClassesThat().resideInAnyPackage("org.openmft.cli..", "org.openmft.client.internal..")
                .check(CLASSES);
        noClasses().that().resideInAnyPackage("org.openmft.xml..", "org.openmft.agent..", "org.openmft.coordination..",
                "org.openmft.client..")
                .should().dependOnClassesThat().resideInAPackage("org.openmft.rest..")
                .check(CLASSES);
    }

    @Test
    void theClientDoesNotDependOnTheCli() {
        noClasses().that().resideInAPackage("org.openmft.client..")
                .should().dependOnClassesThat().resideInAPackage("org.openmft.cli..")
                .check(CLASSES);
    }

    @Test
    void thePublicClientApiShowsNoInternalTypes() {
        // What an application sees (public members of org.openmft.client) may change only with the
        // semantic version; the types of other modules and of .internal may change any time.
        com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods().that().arePublic()
                .and().areDeclaredInClassesThat().resideInAPackage("org.openmft.client")
                .should().haveRawReturnType(com.tngtech.archunit.base.DescribedPredicate.describe(
                        "a JDK or org.openmft.client type", (com.tngtech.archunit.core.domain.JavaClass c) ->
                                !c.getPackageName().startsWith("org.openmft")
                                        || c.getPackageName().equals("org.openmft.client")))
                .check(CLASSES);
    }

    @Test
    void onlyTheCliUsesTheLoggingBackendOrExits() {
        noClasses().that().resideOutsideOfPackage("org.openmft.cli..")
                .should().dependOnClassesThat().resideInAPackage("ch.qos.logback..")
                .check(CLASSES);
        noClasses().that().resideOutsideOfPackage("org.openmft.cli..")
                .should().callMethod(System.class, "exit", int.class)
                .check(CLASSES);
    }
}
