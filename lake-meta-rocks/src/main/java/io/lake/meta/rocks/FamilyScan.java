package io.lake.meta.rocks;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.spi.KeyFamilies;
import io.lake.meta.spi.TooManyFamiliesException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * Lists the families of a RocksDB store by skip scan: seek to the first user key, read its family,
 * seek past every key of that family ({@code family + "/"}'s successor), and so on. One seek per
 * family, never a walk over a family's keys; the internal records (first byte 0x00) lie before
 * the first seek.
 */
final class FamilyScan {

    /** Just past every internal record: the smallest key a user key can be. */
    private static final byte[] FIRST_USER_KEY = {Keys.INTERNAL + 1};

    private FamilyScan() {}

    static List<String> families(RocksDB db, String description) throws RocksDBException {
        List<String> families = new ArrayList<>();
        try (ReadOptions readOptions = new ReadOptions();
                RocksIterator it = db.newIterator(readOptions)) {
            it.seek(FIRST_USER_KEY);
            while (it.isValid()) {
                byte[] key = it.key();
                int slash = indexOfSlash(key);
                if (slash < 1) {
                    throw corrupt(description, key, null);
                }
                String family = new String(key, 0, slash, StandardCharsets.US_ASCII);
                KeyPrefix prefix;
                try {
                    prefix = KeyPrefix.family(family);
                } catch (InvalidArgumentException e) {
                    throw corrupt(description, key, e);
                }
                if (families.size() == KeyFamilies.MAX_FAMILIES) {
                    throw new TooManyFamiliesException(description);
                }
                families.add(family);
                it.seek(Keys.successor(prefix.utf8()));
            }
            it.status();
        }
        return List.copyOf(families);
    }

    private static int indexOfSlash(byte[] key) {
        for (int i = 0; i < key.length; i++) {
            if (key[i] == '/') {
                return i;
            }
        }
        return -1;
    }

    private static StoreUnavailableException corrupt(String description, byte[] key, @Nullable Exception cause) {
        return new StoreUnavailableException(
                description + " holds a key that is not a valid lake-meta key ("
                        + new String(key, StandardCharsets.UTF_8) + "); the store is corrupt or was written by another"
                        + " program",
                cause);
    }
}
