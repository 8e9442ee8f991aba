package io.lake.meta.testkit.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.testkit.dynamo.ContainerTarget;
import io.lake.meta.testkit.dynamo.DynamoTestTarget;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** What the container is started with, checked without Docker. */
class LocalStackTargetTest {

    @Test
    void authToken_whenSet_isPassedToTheContainer() {
        assertThat(LocalStackTarget.containerEnvironment(
                        Map.of(LocalStackTarget.AUTH_TOKEN_ENV, "ls-secret", "HOME", "/root")))
                .containsExactly(Map.entry(LocalStackTarget.AUTH_TOKEN_ENV, "ls-secret"));
    }

    @Test
    void authToken_whenUnsetOrBlank_isNotPassed() {
        assertThat(LocalStackTarget.containerEnvironment(Map.of())).isEmpty();
        assertThat(LocalStackTarget.containerEnvironment(Map.of(LocalStackTarget.AUTH_TOKEN_ENV, " ")))
                .isEmpty();
    }

    @Test
    void image_defaultsToThePinnedOne_andFollowsTheOverride() {
        assertThat(LocalStackTarget.image(Map.of())).isEqualTo(DynamoTestTarget.DEFAULT_LOCALSTACK_IMAGE);
        assertThat(LocalStackTarget.image(Map.of(DynamoTestTarget.LOCALSTACK_IMAGE_ENV, "localstack/localstack:4.1")))
                .isEqualTo("localstack/localstack:4.1");
    }

    @Test
    void isTheContainerTargetTheServiceLoaderFinds() {
        assertThat(ServiceLoader.load(ContainerTarget.class).findFirst()).get().isInstanceOf(LocalStackTarget.class);
    }
}
