package io.lake.meta.testserver.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.testserver.dynamodb.expr.ReservedWords;
import io.lake.meta.testserver.dynamodb.model.AttrValue;
import io.lake.meta.testserver.dynamodb.model.ItemSize;
import io.lake.meta.testserver.dynamodb.model.Numbers;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The size arithmetic and word list behind the fidelity tests, checked directly against documented facts. */
class SizeAndWordsTest {

    @Test
    void documentedItemSizeExample_is23Bytes() {
        Map<String, AttrValue> item = new LinkedHashMap<>();
        item.put("shirt-color", AttrValue.s("R"));
        item.put("shirt-size", AttrValue.s("M"));
        assertThat(ItemSize.of(item)).isEqualTo(23);
    }

    @Test
    void mapsAndListsCostThreeBytesPlusOnePerElement() {
        assertThat(ItemSize.of(AttrValue.m(Map.of("ab", AttrValue.s("xyz"))))).isEqualTo(3 + 2 + 3 + 1);
        assertThat(ItemSize.of(AttrValue.l(java.util.List.of(AttrValue.bool(true), AttrValue.nul()))))
                .isEqualTo(3 + 2 + 2);
    }

    @Test
    void numbersCostAboutOneBytePerTwoDigits() {
        assertThat(ItemSize.of(AttrValue.n(Numbers.parse("0")))).isEqualTo(1);
        assertThat(ItemSize.of(AttrValue.n(Numbers.parse("1")))).isEqualTo(2);
        assertThat(ItemSize.of(AttrValue.n(Numbers.parse("123")))).isEqualTo(3);
        assertThat(ItemSize.of(AttrValue.n(Numbers.parse("-123")))).isEqualTo(4);
    }

    @Test
    void reservedWords_are573AndCaseInsensitive() {
        assertThat(ReservedWords.count()).isEqualTo(573);
        assertThat(ReservedWords.isReserved("status")).isTrue();
        assertThat(ReservedWords.isReserved("Name")).isTrue();
        assertThat(ReservedWords.isReserved("pk")).isFalse();
        for (String word : new String[] {
            "DATA",
            "COUNT",
            "ITEMS",
            "KEY",
            "VALUE",
            "TYPE",
            "SIZE",
            "TIMESTAMP",
            "TTL",
            "USER",
            "INDEX",
            "HASH",
            "RANGE",
            "LOCK",
            "LEVEL",
            "SOURCE",
            "STREAM",
            "SESSION",
            "ROLE",
            "SCHEMA",
            "ZONE",
            "COMMENT"
        }) {
            assertThat(ReservedWords.isReserved(word)).as(word).isTrue();
        }
    }
}
