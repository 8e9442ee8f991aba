package io.lake.meta.reliability.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.reliability.Runs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Sets recognisable fake AWS credentials in a child JVM's environment, runs
 * {@link CredentialProbeMain} there with every logger at TRACE, and searches everything it printed
 * — answers, errors with their causes and stacks, store descriptions, CLI output, logs — for them.
 * The secret key, the session token and the access key id must appear nowhere.
 *
 * <p>One logger is the exception, and it is the AWS SDK's, not lake-meta's: at DEBUG,
 * {@code software.amazon.awssdk.http.auth.aws.internal.signer.DefaultV4RequestSigner} logs each
 * request's canonical form, session-token header included. The first run keeps that one logger at
 * INFO (everything else at TRACE) and must find nothing; the second runs it at DEBUG too and counts
 * what it prints (the operations guide says to keep it below DEBUG), while the secret key must
 * still appear nowhere.
 */
class CredentialLeakTest {

    static final String ACCESS_KEY_ID = "AKIAFAKELAKEMETA0001";
    static final String SECRET = "fAkE/SeCrEt+LakeMeta/0001xyzDoNotLeak";
    static final String SESSION_TOKEN = "FakeSessionTokenLakeMeta0001DoNotLeak";

    static final String SDK_SIGNER_LOGGER = "software.amazon.awssdk.http.auth.aws.internal.signer";

    @Test
    void fakeCredentials_neverAppearInLogsErrorsOrCliOutput() throws Exception {
        Runs.seed("credential-leak");
        String output = probe(SDK_SIGNER_LOGGER, "info");
        String everything = probe(SDK_SIGNER_LOGGER, "trace");
        Runs.figures(
                "credential-leak",
                "probe output lines searched=" + output.lines().count() + ", occurrences: secret="
                        + count(output, SECRET) + ", session token=" + count(output, SESSION_TOKEN) + ", access key id="
                        + count(output, ACCESS_KEY_ID) + "; with the SDK's signer at DEBUG too: secret="
                        + count(everything, SECRET)
                        + ", session token=" + count(everything, SESSION_TOKEN)
                        + " (the SDK's canonical-request log lines)");
        for (String credential : List.of(SECRET, SESSION_TOKEN, ACCESS_KEY_ID)) {
            assertThat(output)
                    .as("the probe's output holds a credential; the lines:\n"
                            + output.lines()
                                    .filter(l -> l.contains(credential))
                                    .limit(5)
                                    .reduce("", (a, b) -> a + b + "\n"))
                    .doesNotContain(credential);
        }
        assertThat(everything).doesNotContain(SECRET);
    }

    /** Runs the probe with every logger at TRACE except {@code logger} at {@code level}; returns all it printed. */
    private static String probe(String logger, String level) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-Daws.disableEc2Metadata=true",
                "-Dsun.net.httpserver.nodelay=true",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=trace",
                "-Dorg.slf4j.simpleLogger.log." + logger + "=" + level,
                "-cp",
                System.getProperty("java.class.path"),
                CredentialProbeMain.class.getName());
        builder.environment().put("AWS_ACCESS_KEY_ID", ACCESS_KEY_ID);
        builder.environment().put("AWS_SECRET_ACCESS_KEY", SECRET);
        builder.environment().put("AWS_SESSION_TOKEN", SESSION_TOKEN);
        builder.environment().put("AWS_REGION", "us-east-1");
        builder.redirectErrorStream(true);
        Process p = builder.start();
        p.getOutputStream().close();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(output).as("the probe ran to its end").contains("PROBED");
        return output;
    }

    private static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }
}
