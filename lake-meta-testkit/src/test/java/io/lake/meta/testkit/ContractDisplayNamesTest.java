package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
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
    void aGroupIsNamedAfterTheBackendsClass_notTheTestkitClassThatDeclaresIt() {
        assertThat(names.generateDisplayNameForNestedClass(List.of(InMemoryMetaStoreContractTest.class),
                ConditionalWriteContract.ConditionalWrites.class))
                .isEqualTo("InMemoryMetaStoreContractTest > conditional writes");
        assertThat(names.generateDisplayNameForClass(InMemoryMetaStoreContractTest.class))
                .isEqualTo("InMemoryMetaStoreContractTest");
    }
}
