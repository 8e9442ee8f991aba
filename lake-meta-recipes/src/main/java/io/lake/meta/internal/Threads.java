package io.lake.meta.internal;

import java.util.concurrent.ThreadFactory;

/** The threads the recipes start for themselves. */
public final class Threads {

    private Threads() {
    }

    /** Daemon threads named {@code name}: a recipe's own thread never keeps the JVM alive. */
    public static ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }
}
