package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.MetaStore;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;

/** Failure paths of {@link TempDirStoreExtension}, driven directly rather than through JUnit. */
class TempDirStoreExtensionFailureTest {

    private static ExtensionContext context(String id) {
        return (ExtensionContext) Proxy.newProxyInstance(
                ExtensionContext.class.getClassLoader(),
                new Class<?>[] {ExtensionContext.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getUniqueId", "getDisplayName" -> id;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void factoryFailure_failsTheTest_andDeletesTheDirectory() {
        List<Path> seen = new CopyOnWriteArrayList<>();
        TempDirStoreExtension failing = TempDirStoreExtension.of(dir -> {
            seen.add(dir);
            Files.writeString(dir.resolve("partial"), "x");
            throw new IllegalStateException("cannot open");
        });

        assertThatThrownBy(() -> failing.beforeEach(context("t1"))).hasMessage("cannot open");

        assertThat(seen).singleElement().satisfies(dir -> assertThat(dir).doesNotExist());
    }

    @Test
    void factoryReturningNull_failsTheTest() {
        TempDirStoreExtension returnsNull = TempDirStoreExtension.of(dir -> null);

        assertThatThrownBy(() -> returnsNull.beforeEach(context("t2")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("returned null");
    }

    @Test
    void storeFailingToClose_failsTheTest_andTheDirectoryIsStillDeleted() throws Exception {
        List<Path> seen = new CopyOnWriteArrayList<>();
        TempDirStoreExtension extension = TempDirStoreExtension.of(dir -> {
            seen.add(dir);
            InMemoryMetaStore inner = InMemoryMetaStore.create();
            return (MetaStore) Proxy.newProxyInstance(
                    MetaStore.class.getClassLoader(), new Class<?>[] {MetaStore.class}, (proxy, method, args) -> {
                        if (method.getName().equals("close")) {
                            throw new IllegalStateException("close failed");
                        }
                        return method.invoke(inner, args);
                    });
        });
        extension.beforeEach(context("t3"));

        assertThatThrownBy(() -> extension.afterEach(context("t3"))).hasMessage("close failed");

        assertThat(seen).singleElement().satisfies(dir -> assertThat(dir).doesNotExist());
    }

    @Test
    void storeAccessor_outsideATest_explainsItself() {
        TempDirStoreExtension unused = TempDirStoreExtension.of(dir -> InMemoryMetaStore.create());

        assertThatThrownBy(unused::store)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no store is open");
    }
}
