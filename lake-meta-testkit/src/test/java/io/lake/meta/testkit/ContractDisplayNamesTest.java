package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class ContractDisplayNamesTest {

    private final ContractDisplayNames names = new ContractDisplayNames();

    @Test
    void words_splitsUnderscoresAndCapitals_keepingAcronymsAndNumbers() {
        assertThat(ContractDisplayNames.words("update_withStaleExpectedBytes_conflictsAndKeepsValue"))
                .isEqualTo("update with stale expected bytes conflicts and keeps value");
        assertThat(ContractDisplayNames.words("ConditionalWrites")).isEqualTo("conditional writes");
        assertThat(ContractDisplayNames.words("getAll_keepsTheOrderAsked")).isEqualTo("get all keeps the order asked");
        assertThat(ContractDisplayNames.words("aCAS_onTTL2")).isEqualTo("a CAS on TTL 2");
        assertThat(ContractDisplayNames.words("aRenameAndAWriter")).isEqualTo("a rename and a writer");
    }

    @Test
    void aContractTest_isNamedGroupThenBehaviour_underTheBackendsClass() throws Exception {
        assertThat(names.generateDisplayNameForClass(InMemoryMetaStoreContractTest.class))
                .isEqualTo("InMemoryMetaStoreContractTest");
        assertThat(names.generateDisplayNameForMethod(
                        List.of(),
                        InMemoryMetaStoreContractTest.class,
                        ConditionalWriteContract.class.getDeclaredMethod(
                                "update_withStaleExpectedBytes_conflictsAndKeepsValue")))
                .isEqualTo("conditional writes > update with stale expected bytes conflicts and keeps value");
    }

    @Test
    void aMethodOutsideAnyGroup_isNamedByItsBehaviourAlone() throws Exception {
        assertThat(names.generateDisplayNameForMethod(
                        List.of(),
                        ContractDisplayNamesTest.class,
                        ContractDisplayNamesTest.class.getDeclaredMethod(
                                "aMethodOutsideAnyGroup_isNamedByItsBehaviourAlone")))
                .isEqualTo("a method outside any group is named by its behaviour alone");
    }

    /** Stands for a suite whose groups are still {@code @Nested} classes. */
    static class Suite {
        @Nested
        class LostAnswers {}
    }

    @Test
    void aNestedGroupIsNamedAfterTheBackendsClass_notTheTestkitClassThatDeclaresIt() {
        assertThat(names.generateDisplayNameForNestedClass(
                        List.of(InMemoryMetaStoreContractTest.class), Suite.LostAnswers.class))
                .isEqualTo("InMemoryMetaStoreContractTest > lost answers");
    }
}
