package io.lake.meta.fenced;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.lease.LeaseAuthority;
import io.lake.meta.lease.LeaseGuard;
import java.lang.reflect.Proxy;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FencedMetaStoreArgumentsTest {

    /** A store no test may call: building a fenced store must not touch it. */
    private static final MetaStore UNTOUCHED = (MetaStore) Proxy.newProxyInstance(
            MetaStore.class.getClassLoader(), new Class<?>[] {MetaStore.class}, (proxy, method, args) -> {
                throw new AssertionError("no call expected, got " + method.getName());
            });

    private static LeaseAuthority authorityOf(MetaKey leaseKey) {
        return new LeaseAuthority() {
            @Override
            public MetaKey leaseKey() {
                return leaseKey;
            }

            @Override
            public Optional<LeaseGuard> currentGuard() {
                return Optional.empty();
            }
        };
    }

    @Test
    void over_refusesANullStoreAuthorityOrLeaseKey_withTheTypedError() {
        LeaseAuthority authority = authorityOf(MetaKey.of("lease/l"));

        assertThatThrownBy(() -> FencedMetaStore.over(null, authority))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("delegate");
        assertThatThrownBy(() -> FencedMetaStore.over(UNTOUCHED, null))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("authority");
        assertThatThrownBy(() -> FencedMetaStore.over(UNTOUCHED, authorityOf(null)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("lease key");
    }
}
