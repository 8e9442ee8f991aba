package io.lake.meta.rocks;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A tiny program the tests run in a second JVM.
 *
 * <ul>
 *   <li>{@code hold DIR}: opens the store, prints {@code OPEN}, keeps it open until its stdin closes.</li>
 *   <li>{@code write-and-halt DIR N}: opens the store with an unsynced WAL, creates keys
 *       {@code crash/0..N-1}, prints {@code WRITTEN} and halts the JVM without closing anything,
 *       as a process crash would.</li>
 *   <li>{@code serve DIR}: opens the store, prints {@code OPEN}, then for each stdin line
 *       {@code put KEY VALUE} writes VALUE to KEY (created or replaced) and prints {@code PUT KEY},
 *       until its stdin closes: a service writing the store it holds.</li>
 * </ul>
 */
public final class StoreHolderMain {

    private StoreHolderMain() {}

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[1]);
        switch (args[0]) {
            case "hold":
                try (MetaStore held = RocksDbMetaStore.builder().directory(dir).build()) {
                    System.out.println("OPEN " + held.get(MetaKey.of("tbl/k")).isPresent());
                    System.out.flush();
                    while (System.in.read() >= 0) {
                        // keep the store open until the parent closes our stdin
                    }
                }
                break;
            case "write-and-halt":
                MetaStore store = RocksDbMetaStore.builder()
                        .directory(dir)
                        .durability(Durability.UNSYNCED_WAL)
                        .build();
                int n = Integer.parseInt(args[2]);
                for (int i = 0; i < n; i++) {
                    store.create(MetaKey.of("crash/" + i), MetaValue.utf8("v" + i));
                }
                System.out.println("WRITTEN");
                System.out.flush();
                Runtime.getRuntime().halt(0);
                break;
            case "serve":
                try (MetaStore served =
                                RocksDbMetaStore.builder().directory(dir).build();
                        java.io.BufferedReader in = new java.io.BufferedReader(
                                new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8))) {
                    System.out.println("OPEN");
                    System.out.flush();
                    for (String line = in.readLine(); line != null; line = in.readLine()) {
                        String[] parts = line.split(" ", 3);
                        MetaKey key = MetaKey.of(parts[1]);
                        MetaValue value = MetaValue.utf8(parts[2]);
                        java.util.Optional<MetaValue> current = served.get(key);
                        if (current.isPresent()) {
                            served.update(key, current.get(), value);
                        } else {
                            served.create(key, value);
                        }
                        System.out.println("PUT " + parts[1]);
                        System.out.flush();
                    }
                }
                break;
            default:
                throw new IllegalArgumentException("unknown mode " + args[0]);
        }
    }
}
