package io.lake.meta.cli.demo;

/**
 * One scene of {@code lake-meta demo}: a short story told with real calls on the demo's store.
 * Scenes run in the order of {@link DemoScenes#all()} on one store, so a scene may build on the
 * keys earlier scenes wrote. A scene checks the outcomes it narrates with {@link DemoContext#check}.
 */
interface DemoScene {

    /** The scene's heading. */
    String title();

    /** Plays the scene: calls the store and narrates each call and its outcome. */
    void play(DemoContext demo);
}
