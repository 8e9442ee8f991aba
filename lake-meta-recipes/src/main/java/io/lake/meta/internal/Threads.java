package io.lake.meta.internal;

import java.util.concurrent.ThreadFactory;

/**
 * The threads the recipes start for themselves.
 *
 * @since 0.1.0
 */
public final class Threads {

    private Threads() {}

    /** Daemon threads named {@code name}: a recipe's own thread never keeps the JVM alive. */
    public static ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }
}
