package io.lake.meta.rocks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** How long a leader waits for more commits, from what the last batch showed. */
class BatchGatheringTest {

    private static final long SYNC = TimeUnit.MICROSECONDS.toNanos(200);

    private final BatchGathering gathering = new BatchGathering();

    @Test
    void beforeAnyBatch_aLeaderExpectsOnlyItselfAndDoesNotWait() {
        assertThat(gathering.expectedCommits(512)).isEqualTo(1);
        assertThat(gathering.waitNanos()).isZero();
    }

    @Test
    void aWriterAlone_expectsOnlyItself() {
        gathering.written(1, 0, SYNC);

        assertThat(gathering.expectedCommits(512)).isEqualTo(1);
    }

    @Test
    void afterASyncedBatch_theLeaderExpectsEveryAppliedOrQueuedCommit_forAtMostHalfTheSync() {
        gathering.written(8, 7, SYNC);

        assertThat(gathering.expectedCommits(512)).isEqualTo(15);
        assertThat(gathering.waitNanos()).isEqualTo(SYNC / 2);
    }

    @Test
    void onAHotKey_theLosersOfTheLastBatchAreNotWaitedFor() {
        gathering.written(1, 0, SYNC); // one winner, fifteen conflicts, nothing queued

        assertThat(gathering.expectedCommits(512)).isEqualTo(1);
    }

    @Test
    void theExpectedCommits_neverExceedWhatABatchMayHold() {
        gathering.written(400, 300, SYNC);

        assertThat(gathering.expectedCommits(512)).isEqualTo(512);
    }

    @Test
    void aWriteTooFastToBeWorthAWait_meansNoWait() {
        gathering.written(16, 0, TimeUnit.MICROSECONDS.toNanos(5)); // an unsynced write

        assertThat(gathering.waitNanos()).isZero();
    }

    @Test
    void aStalledSync_boundsTheWaitAtOneMillisecond() {
        gathering.written(16, 0, TimeUnit.MILLISECONDS.toNanos(80));

        assertThat(gathering.waitNanos()).isEqualTo(BatchGathering.MAX_WAIT_NANOS);
    }

    @Test
    void aBatchThatWroteNothing_meansNoWaitForTheNext() {
        gathering.written(16, 0, SYNC);
        gathering.written(0, 3, 0); // every commit refused, or the write failed

        assertThat(gathering.waitNanos()).isZero();
        assertThat(gathering.expectedCommits(512)).isEqualTo(3);
    }

    @Test
    void aWaitingWriterYieldsForTwiceTheLastWrite_atMostOneMillisecond() {
        assertThat(gathering.yieldNanos()).isZero(); // nothing written yet: park at once

        gathering.written(16, 0, SYNC);
        assertThat(gathering.yieldNanos()).isEqualTo(2 * SYNC);

        gathering.written(16, 0, TimeUnit.MILLISECONDS.toNanos(80));
        assertThat(gathering.yieldNanos()).isEqualTo(BatchGathering.MAX_YIELD_NANOS);

        gathering.written(0, 0, 0);
        assertThat(gathering.yieldNanos()).isZero();
    }
}
