package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.MetaStore;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.testkit.outside.UnknownCurrentStores;
import java.time.Duration;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

/**
 * What a backend author sees when the store does not do what the suite expects by default, and
 * what the declarations change: the race-hook timeout, the hint naming the hook, capabilities.
 */
class ContractDeclarationsTest {

    private ContractByHand contract;

    /** The contract on stores {@code factory} opens, with these capabilities, waiting 300 ms for a race hook. */
    private ContractByHand open(Function<RaceHooks, MetaStore> factory, Capabilities capabilities) throws Exception {
        contract = ContractByHand.on(ContractByHand.backend(
                factory, capabilities, SuiteSettings.defaults().withRaceHookTimeout(Duration.ofMillis(300))));
        return contract;
    }

    @AfterEach
    void close() throws Exception {
        if (contract != null) {
            contract.close();
            contract = null;
        }
    }

    /** A store that ignores the hooks it is given: the mistake a new backend makes first. */
    private static MetaStore ignoringHooks(RaceHooks hooks) {
        return InMemoryMetaStore.create();
    }

    @Test
    void aStoreThatNeverCallsItsHook_failsAfterTheConfiguredTimeout_namingTheHookAndWhereToCallIt() throws Exception {
        var races = open(ContractDeclarationsTest::ignoringHooks, Capabilities.all());

        assertThatThrownBy(races::twoWritersInterleavedInsideACommit_secondConflictsWithTheFirstsValue)
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("within PT0.3S")
                .hasMessageContaining("never called RaceHooks.reached(RaceHooks.COMMIT_CHECKED)")
                .hasMessageContaining("BackendFactory.open(context)")
                .hasMessageContaining("after they were checked, before the write is visible")
                .hasMessageContaining("Capability.RACE_HOOKS");

        // The backend's next race test does not wait again.
        assertThatThrownBy(races::twoCreatorsInterleavedInsideACommit_secondConflictsWithTheFirstsValue)
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("not waiting again")
                .hasMessageContaining("RaceHooks.COMMIT_CHECKED");
    }

    @Test
    void withoutRaceHooksDeclared_theRaceTestsAreSkippedWithTheReason_andTheConcurrentWritesStillRun()
            throws Exception {
        ContractByHand declared = open(
                ContractDeclarationsTest::ignoringHooks,
                Capabilities.all().without(Capability.RACE_HOOKS, "the commits run in a remote server"));

        assertThatThrownBy(declared::twoWritersInterleavedInsideACommit_secondConflictsWithTheFirstsValue)
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("declared without Capability.RACE_HOOKS (the commits run in a remote server)")
                .hasMessageContaining("concurrent-writer tests");
        declared.twoCreatorsOfOneKey_exactlyOneApplies_theOtherConflictsWithItsValue();
        declared.aRenameAndAWriterOfTheOldKey_exactlyOneApplies_andNothingIsHalfMoved();
    }

    @Test
    void aConflictWithoutItsCurrentValue_failsWithTheCapabilityToDeclare_unlessDeclared() throws Exception {
        var strict = open(UnknownCurrentStores::forgetting, Capabilities.all());
        assertThatThrownBy(strict::create_presentKey_conflictsWithCurrentValueAndKeepsIt)
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("conflict without the key's current value")
                .hasMessageContaining("Capability.CONFLICT_REPORTS_CURRENT_VALUE");
        close();

        var declared = open(
                UnknownCurrentStores::forgetting,
                Capabilities.all().without(Capability.CONFLICT_REPORTS_CURRENT_VALUE, "the store forgets it"));
        declared.create_presentKey_conflictsWithCurrentValueAndKeepsIt();
    }

    @Test
    void aConflictWithAWrongCurrentValue_failsEvenWhenUnknownValuesAreDeclared() throws Exception {
        var declared = open(
                UnknownCurrentStores::lying,
                Capabilities.all().without(Capability.CONFLICT_REPORTS_CURRENT_VALUE, "the store forgets it"));
        assertThatThrownBy(declared::create_presentKey_conflictsWithCurrentValueAndKeepsIt)
                .isInstanceOf(AssertionError.class);
    }

    @Test
    void raceHookTimeout_readsTheSystemProperty_inSecondsOrIso8601_unlessTheBackendSetsIt() {
        SuiteSettings plain = SuiteSettings.defaults();
        String before = System.getProperty(SuiteSettings.RACE_HOOK_TIMEOUT_PROPERTY);
        try {
            System.clearProperty(SuiteSettings.RACE_HOOK_TIMEOUT_PROPERTY);
            assertThat(plain.raceHookTimeout()).isEqualTo(Duration.ofSeconds(30));
            System.setProperty(SuiteSettings.RACE_HOOK_TIMEOUT_PROPERTY, "5");
            assertThat(plain.raceHookTimeout()).isEqualTo(Duration.ofSeconds(5));
            System.setProperty(SuiteSettings.RACE_HOOK_TIMEOUT_PROPERTY, "PT0.5S");
            assertThat(plain.raceHookTimeout()).isEqualTo(Duration.ofMillis(500));
            System.setProperty(SuiteSettings.RACE_HOOK_TIMEOUT_PROPERTY, "soon");
            assertThatThrownBy(plain::raceHookTimeout)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(SuiteSettings.RACE_HOOK_TIMEOUT_PROPERTY)
                    .hasMessageContaining("soon");
            assertThat(plain.withRaceHookTimeout(Duration.ofSeconds(2)).raceHookTimeout())
                    .as("the backend's own")
                    .isEqualTo(Duration.ofSeconds(2));
        } finally {
            if (before == null) {
                System.clearProperty(SuiteSettings.RACE_HOOK_TIMEOUT_PROPERTY);
            } else {
                System.setProperty(SuiteSettings.RACE_HOOK_TIMEOUT_PROPERTY, before);
            }
        }
    }
}
