package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.MetaStore;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.testkit.outside.UnknownCurrentStores;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

/**
 * What a backend author sees when the store does not do what the suite expects by default, and
 * what the declarations change: the race-hook timeout, the hint naming the hook, capabilities.
 */
class ContractDeclarationsTest {

    /** A contract whose store, capabilities and timeout the test chooses. */
    private static final class Contract extends MetaStoreContract {
        private final Function<RaceHooks, MetaStore> factory;
        private final Set<ContractCapability> capabilities;

        Contract(Function<RaceHooks, MetaStore> factory, Set<ContractCapability> capabilities) {
            this.factory = factory;
            this.capabilities = capabilities;
        }

        @Override
        protected MetaStore openStore(RaceHooks hooks) {
            return factory.apply(hooks);
        }

        @Override
        protected Set<ContractCapability> capabilities() {
            return capabilities;
        }

        @Override
        protected Duration raceHookTimeout() {
            return Duration.ofMillis(300);
        }
    }

    private Contract contract;

    private Contract open(Function<RaceHooks, MetaStore> factory, Set<ContractCapability> capabilities) throws Exception {
        contract = new Contract(factory, capabilities);
        contract.openStoreUnderTest();
        return contract;
    }

    @AfterEach
    void close() {
        if (contract != null) {
            contract.closeStoreUnderTest();
        }
    }

    /** A store that ignores the hooks it is given: the mistake a new backend makes first. */
    private static MetaStore ignoringHooks(RaceHooks hooks) {
        return InMemoryMetaStore.create();
    }

    @Test
    void aStoreThatNeverCallsItsHook_failsAfterTheConfiguredTimeout_namingTheHookAndWhereToCallIt() throws Exception {
        var races = open(ContractDeclarationsTest::ignoringHooks, EnumSet.allOf(ContractCapability.class));

        assertThatThrownBy(races::twoWritersInterleavedInsideACommit_secondConflictsWithTheFirstsValue)
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("within PT0.3S")
                .hasMessageContaining("never called RaceHooks.reached(RaceHooks.COMMIT_CHECKED)")
                .hasMessageContaining("openStore(hooks)")
                .hasMessageContaining("after they were checked, before the write is visible")
                .hasMessageContaining("ContractCapability.RACE_HOOKS");

        // The class's next race test does not wait again.
        assertThatThrownBy(races::twoCreatorsInterleavedInsideACommit_secondConflictsWithTheFirstsValue)
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("not waiting again").hasMessageContaining("RaceHooks.COMMIT_CHECKED");
    }

    @Test
    void withoutRaceHooksDeclared_theRaceTestsAreSkippedWithTheReason_andTheConcurrentWritesStillRun() throws Exception {
        Contract declared = open(ContractDeclarationsTest::ignoringHooks, EnumSet.of(ContractCapability.CONFLICT_REPORTS_CURRENT_VALUE));

        assertThatThrownBy(declared::twoWritersInterleavedInsideACommit_secondConflictsWithTheFirstsValue)
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("declared without ContractCapability.RACE_HOOKS")
                .hasMessageContaining("concurrent-writer tests");
        declared.twoCreatorsOfOneKey_exactlyOneApplies_theOtherConflictsWithItsValue();
        declared.aRenameAndAWriterOfTheOldKey_exactlyOneApplies_andNothingIsHalfMoved();
    }

    @Test
    void aConflictWithoutItsCurrentValue_failsWithTheCapabilityToDeclare_unlessDeclared() throws Exception {
        var strict = open(UnknownCurrentStores::forgetting,
                EnumSet.allOf(ContractCapability.class));
        assertThatThrownBy(strict::create_presentKey_conflictsWithCurrentValueAndKeepsIt).isInstanceOf(AssertionError.class)
                .hasMessageContaining("conflict without the key's current value")
                .hasMessageContaining("ContractCapability.CONFLICT_REPORTS_CURRENT_VALUE");
        close();

        var declared = open(UnknownCurrentStores::forgetting,
                EnumSet.of(ContractCapability.RACE_HOOKS));
        declared.create_presentKey_conflictsWithCurrentValueAndKeepsIt();
    }

    @Test
    void aConflictWithAWrongCurrentValue_failsEvenWhenUnknownValuesAreDeclared() throws Exception {
        var declared = open(UnknownCurrentStores::lying,
                EnumSet.of(ContractCapability.RACE_HOOKS));
        assertThatThrownBy(declared::create_presentKey_conflictsWithCurrentValueAndKeepsIt).isInstanceOf(AssertionError.class);
    }

    @Test
    void raceHookTimeout_readsTheSystemProperty_inSecondsOrIso8601() {
        MetaStoreContract plain = new MetaStoreContract() {
            @Override
            protected MetaStore openStore(RaceHooks hooks) {
                return InMemoryMetaStore.withHooks(hooks);
            }
        };
        String before = System.getProperty(ContractSupport.RACE_HOOK_TIMEOUT_PROPERTY);
        try {
            System.clearProperty(ContractSupport.RACE_HOOK_TIMEOUT_PROPERTY);
            assertThat(plain.raceHookTimeout()).isEqualTo(Duration.ofSeconds(30));
            System.setProperty(ContractSupport.RACE_HOOK_TIMEOUT_PROPERTY, "5");
            assertThat(plain.raceHookTimeout()).isEqualTo(Duration.ofSeconds(5));
            System.setProperty(ContractSupport.RACE_HOOK_TIMEOUT_PROPERTY, "PT0.5S");
            assertThat(plain.raceHookTimeout()).isEqualTo(Duration.ofMillis(500));
            System.setProperty(ContractSupport.RACE_HOOK_TIMEOUT_PROPERTY, "soon");
            assertThatThrownBy(plain::raceHookTimeout).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(ContractSupport.RACE_HOOK_TIMEOUT_PROPERTY).hasMessageContaining("soon");
        } finally {
            if (before == null) {
                System.clearProperty(ContractSupport.RACE_HOOK_TIMEOUT_PROPERTY);
            } else {
                System.setProperty(ContractSupport.RACE_HOOK_TIMEOUT_PROPERTY, before);
            }
        }
    }
}
