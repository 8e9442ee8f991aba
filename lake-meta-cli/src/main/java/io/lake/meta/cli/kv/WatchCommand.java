package io.lake.meta.cli.kv;

import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaStore;
import io.lake.meta.cli.ExitCodeHelp;
import io.lake.meta.cli.ExitCodes;
import io.lake.meta.cli.Json;
import io.lake.meta.cli.PrefixOption;
import io.lake.meta.cli.UsageException;
import io.lake.meta.cli.VersionProvider;
import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchEvent;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code watch --prefix P}: prints a prefix's contents, then every change, until stopped. */
@Command(
        name = "watch",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Print the keys under a prefix, then every change to them, until Ctrl-C (or --max-events).",
            "One line per event: 'initial KEY<TAB>VALUE' for what the prefix held when the watch began, then "
                    + "'changed KEY<TAB>VALUE' or 'deleted KEY'. Each change is printed at least once with the key's "
                    + "latest value; a key's events keep their order. On rocks:DIR the command reads the store "
                    + "read-only, also while a service holds and writes it, and takes no lock: every 0.2 seconds it "
                    + "catches up with the store's writes and lists the prefix. On dynamo:TABLE and "
                    + "postgres:JDBC-URL it polls the prefix every second, so a change shows within about a second "
                    + "plus one listing of the prefix."
        },
        exitCodeListHeading = ExitCodeHelp.HEADING,
        exitCodeList = {
            "0:--max-events events were printed, or the watch was interrupted (Ctrl-C)",
            ExitCodeHelp.BAD_INPUT,
            ExitCodeHelp.STORE_ERROR,
            ExitCodeHelp.INTERNAL_ERROR
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  lake-meta watch --store rocks:/tmp/meta --prefix tbl/sales/",
            "  lake-meta watch --store dynamo:meta --prefix tbl/ --changes-only \\",
            "      --max-events 10 --json"
        })
public final class WatchCommand extends StoreCommand {

    /** How long a stop signal waits for the watch to close its store before the JVM halts anyway. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    @Option(
            names = "--prefix",
            required = true,
            paramLabel = "P",
            description = "Starts with a whole family: tbl/, tbl/sales/ or tbl/sales/o.")
    String prefix;

    @Option(names = "--changes-only", description = "Do not print the initial contents, only the changes.")
    boolean changesOnly;

    @Option(
            names = "--max-events",
            paramLabel = "N",
            description = "Stop after printing N events (at least 1); without it, run until interrupted.")
    @Nullable
    Integer maxEvents;

    @SuppressWarnings("try") // the watch is held open while events are printed
    @Override
    public Integer call() {
        KeyPrefix keyPrefix = PrefixOption.parse(prefix);
        if (maxEvents != null && maxEvents < 1) {
            throw new UsageException("--max-events must be at least 1, got " + maxEvents);
        }
        ValueEncoding encoding = format.encoding();
        BlockingQueue<WatchEvent> events = new LinkedBlockingQueue<>();
        AtomicBoolean stopped = new AtomicBoolean();
        CountDownLatch storeClosed = new CountDownLatch(1);
        // The JVM halts once its shutdown hooks return: this one waits until the loop has seen the
        // flag and closed the store (a read-only view deletes its scratch directory on close).
        Thread stopOnSignal = new Thread(
                () -> {
                    stopped.set(true);
                    try {
                        storeClosed.await(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "lake-meta-watch-stop");
        Runtime.getRuntime().addShutdownHook(stopOnSignal);
        try (MetaStore store = storeOptions.openReadOnly();
                Watch watch = store.watch(keyPrefix, events::add)) {
            PrintWriter out = spec.commandLine().getOut();
            int printed = 0;
            while (!stopped.get() && (maxEvents == null || printed < maxEvents)) {
                WatchEvent event = events.poll(200, TimeUnit.MILLISECONDS);
                if (event == null || (changesOnly && event.isInitial())) {
                    continue;
                }
                out.println(format.json ? Json.write(json(event, encoding)) : text(event, encoding));
                out.flush();
                printed++;
            }
            return ExitCodes.OK;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ExitCodes.OK;
        } finally {
            storeClosed.countDown(); // try-with-resources closed the watch and the store before this
            try {
                Runtime.getRuntime().removeShutdownHook(stopOnSignal);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is already stopping: the hook runs anyway
            }
        }
    }

    private static String text(WatchEvent event, ValueEncoding encoding) {
        String what = event.isInitial() ? "initial " : event.value().isPresent() ? "changed " : "deleted ";
        return what
                + event.key()
                + event.value()
                        .map(v -> "\t" + encoding.encode(v, "value of " + event.key()))
                        .orElse("");
    }

    private static Map<String, Object> json(WatchEvent event, ValueEncoding encoding) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("key", event.key().toString());
        json.put("event", event.isInitial() ? "initial" : event.value().isPresent() ? "changed" : "deleted");
        event.value().ifPresent(v -> {
            json.put("value", encoding.encode(v, "value of " + event.key()));
            json.put("encoding", encoding.label());
        });
        return json;
    }
}
