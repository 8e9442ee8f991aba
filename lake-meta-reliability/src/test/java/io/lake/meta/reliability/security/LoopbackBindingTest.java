package io.lake.meta.reliability.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.reliability.DynamoStores;
import io.lake.meta.reliability.Runs;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The servers the testkit starts listen on loopback only: the in-process DynamoDB test server,
 * alone and as the testkit's chosen target. Checked on the kernel's own table of listening
 * sockets ({@code /proc/net/tcp} and {@code tcp6}), not on what the server says of itself.
 */
class LoopbackBindingTest {

    @Test
    void theDynamoDbTestServer_listensOnLoopbackOnly() throws Exception {
        Runs.seed("loopback");
        try (DynamoDbTestServer own = DynamoDbTestServer.create().start()) {
            assertThat(own.endpoint().getHost()).isEqualTo("127.0.0.1");
            assertThat(listeners(own.port()))
                    .as("listening sockets on port " + own.port())
                    .isNotEmpty()
                    .allMatch(LoopbackBindingTest::isLoopback);
        }
        DynamoStores.server()
                .ifPresent(shared ->
                        assertThat(listeners(shared.port())).isNotEmpty().allMatch(LoopbackBindingTest::isLoopback));
        Runs.figures(
                "loopback",
                "servers checked=" + (DynamoStores.server().isPresent() ? 2 : 1) + ", non-loopback listeners=0");
    }

    /** The local addresses (hex, as the kernel writes them) of sockets listening on {@code port}. */
    private static List<String> listeners(int port) {
        String hexPort = String.format(Locale.ROOT, "%04X", port);
        return List.of("/proc/net/tcp", "/proc/net/tcp6").stream()
                .map(Path::of)
                .filter(Files::exists)
                .flatMap(p -> {
                    try {
                        return Files.readAllLines(p).stream().skip(1);
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                })
                .map(String::trim)
                .map(l -> l.split("\\s+"))
                .filter(f -> f[3].equals("0A") && f[1].endsWith(":" + hexPort))
                .map(f -> f[1].substring(0, f[1].indexOf(':')))
                .toList();
    }

    private static boolean isLoopback(String hexAddress) {
        // 127.x.x.x little-endian ends in 7F; ::1 is 0000...01000000; ::ffff:127.x.x.x ends in 7F too
        return hexAddress.length() == 8
                ? hexAddress.endsWith("7F")
                : hexAddress.equals("00000000000000000000000001000000") || hexAddress.endsWith("7F");
    }
}
