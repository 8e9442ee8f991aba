package io.lake.meta.metrics;

/** The meters' names and tag keys, in Micrometer's dot notation; the guide documents each one. */
final class MeterNames {

    static final String OPERATION = "lake.meta.operation";
    static final String CONFLICTS = "lake.meta.conflicts";
    static final String GUARD_REJECTIONS = "lake.meta.guard.rejections";
    static final String FENCED_REFUSALS = "lake.meta.fenced.refusals";
    static final String ERRORS = "lake.meta.errors";
    static final String PAGE_ITEMS_EVALUATED = "lake.meta.page.items.evaluated";
    static final String LEADERSHIP_LEADER = "lake.meta.leadership.leader";
    static final String LEADERSHIP_EPOCH = "lake.meta.leadership.epoch";
    static final String LEADERSHIP_TRANSITIONS = "lake.meta.leadership.transitions";

    static final String BACKEND = "backend";
    static final String OPERATION_TAG = "operation";
    static final String OUTCOME = "outcome";
    static final String CAUSE = "cause";
    static final String RETRYABLE = "retryable";
    static final String LEASE = "lease";
    static final String CANDIDATE = "candidate";
    static final String EVENT = "event";

    private MeterNames() {}
}
