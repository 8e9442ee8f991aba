package io.lake.meta.cli.demo;

import io.lake.meta.registry.RegistryWriteResult;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.registry.TableRegistry;

/** Two writers race to update one registration with exact-bytes compare-and-set. */
final class CompareAndSetScene implements DemoScene {

    @Override
    public String title() {
        return "Compare-and-set";
    }

    @Override
    public void play(DemoContext demo) {
        TableRegistry registry = TableRegistry.over(demo.store(), demo.clock());
        demo.say("Writers A and B both read " + Tables.ORDERS_KEY + " (generation 1); an update applies only");
        demo.say("if the key still holds exactly the bytes that writer read, and adds 1 to the generation.");
        TableRegistration read = registry.get(Tables.ORDERS).orElseThrow();
        demo.step("get " + Tables.ORDERS_KEY, Tables.describe(read));

        RegistryWriteResult a = registry.update(read, read.spec().withProperty("owner", "sales"));
        demo.step("A: update from generation 1 (owner=sales)", outcome(a));
        demo.check(
                a.isApplied() && a.registration().orElseThrow().generation() == 2,
                "A's update to apply as generation 2");

        RegistryWriteResult b = registry.update(read, read.spec().withProperty("tier", "gold"));
        demo.step("B: update from generation 1 (now stale)", outcome(b));
        demo.check(
                b.isConflict() && b.registration().orElseThrow().generation() == 2,
                "B's stale update to conflict with generation 2");
        demo.say("B's conflict carries the current registration, so B retries from it without another read:");

        TableRegistration current = b.registration().orElseThrow();
        RegistryWriteResult retry = registry.update(current, current.spec().withProperty("tier", "gold"));
        demo.step("B: update from generation 2 (tier=gold)", outcome(retry));
        demo.check(
                retry.isApplied()
                        && retry.registration().orElseThrow().properties().size() == 2,
                "B's retry to apply, keeping A's owner");
    }

    private static String outcome(RegistryWriteResult result) {
        String registration = result.registration().map(Tables::describe).orElse("absent");
        return result.isApplied() ? "applied: " + registration : "conflict, current registration " + registration;
    }
}
