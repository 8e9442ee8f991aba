package io.lake.meta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.FencedException;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.InvalidPageTokenException;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.StoreClosedException;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.WriteBarrierException;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ErrorHandlerTest {

    @Test
    void badInput_mapsToUsage() {
        assertThat(ErrorHandler.exitCodeFor(new UsageException("x"))).isEqualTo(ExitCodes.USAGE);
        assertThat(ErrorHandler.exitCodeFor(new InvalidArgumentException("x"))).isEqualTo(ExitCodes.USAGE);
        assertThat(ErrorHandler.exitCodeFor(new InvalidPageTokenException("x"))).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void storeFailures_mapToStoreError() {
        assertThat(ErrorHandler.exitCodeFor(new StoreOpenException("x", null))).isEqualTo(ExitCodes.STORE_ERROR);
        assertThat(ErrorHandler.exitCodeFor(new ServerStartException("x", null)))
                .isEqualTo(ExitCodes.STORE_ERROR);
        assertThat(ErrorHandler.exitCodeFor(new StoreUnavailableException("x"))).isEqualTo(ExitCodes.STORE_ERROR);
        assertThat(ErrorHandler.exitCodeFor(new OutcomeUnknownException("x", null)))
                .isEqualTo(ExitCodes.STORE_ERROR);
        assertThat(ErrorHandler.exitCodeFor(new StoreClosedException("store"))).isEqualTo(ExitCodes.STORE_ERROR);
        assertThat(ErrorHandler.exitCodeFor(new WriteBarrierException("x"))).isEqualTo(ExitCodes.STORE_ERROR);
        assertThat(ErrorHandler.exitCodeFor(new FencedException("x"))).isEqualTo(ExitCodes.STORE_ERROR);
    }

    @Test
    void anythingElse_isAnInternalError() {
        assertThat(ErrorHandler.exitCodeFor(new IllegalStateException("bug"))).isEqualTo(ExitCodes.INTERNAL_ERROR);
        assertThat(ErrorHandler.exitCodeFor(new NullPointerException())).isEqualTo(ExitCodes.INTERNAL_ERROR);
    }

    @Test
    void internalError_printsTheStackTrace_userErrorsDoNot() {
        StringWriter err = new StringWriter();
        CommandLine command = LakeMetaCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(err));

        int bug = new ErrorHandler().handleExecutionException(new IllegalStateException("boom"), command, null);
        String bugOutput = err.toString();
        err.getBuffer().setLength(0);
        int user = new ErrorHandler().handleExecutionException(new InvalidArgumentException("bad\nkey"), command, null);

        assertThat(bug).isEqualTo(ExitCodes.INTERNAL_ERROR);
        assertThat(bugOutput)
                .startsWith("lake-meta: internal error: java.lang.IllegalStateException: boom")
                .contains("\tat ");
        assertThat(user).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).isEqualTo("lake-meta: bad key" + System.lineSeparator());
    }
}
