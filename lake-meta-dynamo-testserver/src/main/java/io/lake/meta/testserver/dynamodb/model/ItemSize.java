package io.lake.meta.testserver.dynamodb.model;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * DynamoDB's item size, the measure behind the 400 KB item limit, capacity units and the 1 MB
 * page: attribute name bytes plus value sizes, with 3 bytes per map or list and 1 per element.
 *
 * @since 0.1.0
 */
public final class ItemSize {

    /** The largest item DynamoDB stores: 400 KB. */
    public static final int MAX_ITEM_BYTES = 409_600;

    private ItemSize() {}

    public static long of(Map<String, AttrValue> item) {
        long size = 0;
        for (Map.Entry<String, AttrValue> e : item.entrySet()) {
            size += utf8Length(e.getKey()) + of(e.getValue());
        }
        return size;
    }

    public static long of(AttrValue v) {
        switch (v.type()) {
            case S:
                return utf8Length(v.s());
            case N:
                return Numbers.size(v.n());
            case B:
                return v.rawBytes().length;
            case BOOL:
            case NULL:
                return 1;
            case M: {
                long size = 3;
                for (Map.Entry<String, AttrValue> e : v.m().entrySet()) {
                    size += utf8Length(e.getKey()) + of(e.getValue()) + 1;
                }
                return size;
            }
            case L: {
                long size = 3;
                for (AttrValue e : v.elements()) {
                    size += of(e) + 1;
                }
                return size;
            }
            default: {
                long size = 0;
                for (AttrValue e : v.elements()) {
                    size += of(e);
                }
                return size;
            }
        }
    }

    public static int utf8Length(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }
}
