package io.lake.meta.cli.demo;

import java.util.List;

/** The demo's scenes, in the order they play. Add a scene here to extend the demo. */
final class DemoScenes {

    private DemoScenes() {}

    static List<DemoScene> all() {
        return List.of(
                new RegisterTablesScene(),
                new CompareAndSetScene(),
                new GuardedWriteScene(),
                new PagingScene(),
                new LeadershipScene(),
                new MaintenanceAndReplayScene());
    }
}
