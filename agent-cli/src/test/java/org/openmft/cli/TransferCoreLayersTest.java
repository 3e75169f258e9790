package org.openmft.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * The rooms of the transfer core (docs/architecture.md, "Packages of agent-core"), checked:
 * {@code protocol}, {@code state} and {@code failure} depend on nothing of the source or
 * destination side; the two sides do not depend on each other; only {@code recovery} and the
 * engine see both; the state port has no JMS types.
 */
class TransferCoreLayersTest {
    private static final String CORE = "org.openmft.agent.transfer";
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(CORE);

    @Test
    void protocolStateAndFailureDependOnNothingOfTheSides() {
        noClasses().that().resideInAnyPackage(CORE + ".protocol..", CORE + ".state..", CORE + ".failure..")
                .should().dependOnClassesThat().resideInAnyPackage(CORE + ".source..", CORE + ".destination..",
                        CORE + ".recovery..")
                .check(CLASSES);
    }

    @Test
    void theProtocolKnowsNothingOfState() {
        noClasses().that().resideInAPackage(CORE + ".protocol..")
                .should().dependOnClassesThat().resideInAnyPackage(CORE + ".state..", CORE + ".failure..")
                .check(CLASSES);
    }

    @Test
    void theSidesDoNotDependOnEachOtherNorOnRecoveryOrTheEngine() {
        noClasses().that().resideInAPackage(CORE + ".source..")
                .should().dependOnClassesThat().resideInAnyPackage(CORE + ".destination..", CORE + ".recovery..")
                .check(CLASSES);
        noClasses().that().resideInAPackage(CORE + ".destination..")
                .should().dependOnClassesThat().resideInAnyPackage(CORE + ".source..", CORE + ".recovery..")
                .check(CLASSES);
        noClasses().that().resideInAnyPackage(CORE + ".source..", CORE + ".destination..", CORE + ".recovery..",
                CORE + ".protocol..", CORE + ".state..", CORE + ".failure..")
                .should().dependOnClassesThat().resideInAPackage(CORE)
                .check(CLASSES);
    }

    @Test
    void theStatePortHasNoJmsTypes() {
        noClasses().that().resideInAPackage(CORE + ".state..")
                .and().doNotHaveSimpleName("QueueStateStore").and().doNotHaveSimpleName("StateQueue")
                .should().dependOnClassesThat().resideInAnyPackage("jakarta.jms..", "jakarta.jms..")
                .check(CLASSES);
    }
}
