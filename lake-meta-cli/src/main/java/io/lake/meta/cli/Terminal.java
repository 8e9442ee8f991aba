package io.lake.meta.cli;

import java.io.Console;

/** Whether a person watches at a terminal: progress is then redrawn in place, else logged in lines. */
public final class Terminal {

    private Terminal() {}

    /**
     * Whether this process talks to a terminal. Before JDK 22, {@link System#console()} is null
     * otherwise; JDK 22 to 24 answer a console without a terminal too, which
     * {@code Console.isTerminal()} (JDK 22) tells apart. It is called reflectively: the build
     * targets Java 17.
     */
    @SuppressWarnings("SystemConsoleNull") // the null check answers before JDK 22; isTerminal() from then on
    public static boolean interactive() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            return Boolean.TRUE.equals(Console.class.getMethod("isTerminal").invoke(console));
        } catch (NoSuchMethodException e) {
            return true; // before JDK 22 a console is a terminal
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }
}
