package io.lake.meta.lease;

/**
 * Work that runs only while its candidate leads, run by a {@link LeaderTaskRunner} (like Curator's
 * {@code LeaderSelectorListener.takeLeadership}).
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface LeaderTask {

    /**
     * Leads in the term of {@code guard}: called once per term, on the runner's thread, after
     * "gained". The thread is interrupted when the term ends ("lost"); return promptly then.
     * Write through {@code FencedMetaStore.over(store, election).pinnedTo(guard.epoch())} so that
     * nothing goes out after the term, however late the interrupt is noticed. When this returns
     * (or throws) while the term lasts, the runner resigns, so another candidate may lead.
     *
     * @param guard the guard of the term this call leads in
     * @throws Exception anything: logged, then the runner resigns
     */
    void lead(LeaseGuard guard) throws Exception;
}
