package io.lake.meta.ops;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.PageRequest;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Which operation records to read (or collect): every tenant or one, an optional continuation
 * token, and a limit of 1 to {@value io.lake.meta.Limits#MAX_PAGE_LIMIT}. Validated when built. Immutable.
 */
public final class JournalPageRequest {

    private final @Nullable String tenant;
    private final PageRequest page;

    private JournalPageRequest(@Nullable String tenant, PageRequest page) {
        this.tenant = tenant;
        this.page = page;
    }

    /**
     * The first page of the journal, every tenant's operations, at most {@code limit} of them.
     *
     * @throws InvalidArgumentException if {@code limit} is outside 1..10 000
     */
    public static JournalPageRequest allTenants(int limit) {
        return new JournalPageRequest(null, PageRequest.first(OperationId.allTenants(), limit));
    }

    /**
     * The first page of {@code tenant}'s operations, at most {@code limit} of them.
     *
     * @throws InvalidArgumentException if the tenant is invalid or {@code limit} is outside 1..10 000
     */
    public static JournalPageRequest tenant(String tenant, int limit) {
        return new JournalPageRequest(tenant, PageRequest.first(OperationId.prefixOf(tenant), limit));
    }

    /**
     * This request resumed at {@code token}, a continuation token of the same selection.
     *
     * @throws InvalidArgumentException if {@code token} is null or empty
     */
    public JournalPageRequest after(String token) {
        Arguments.notNull(token, "page token");
        return new JournalPageRequest(tenant, PageRequest.after(page.prefix(), token, page.limit()));
    }

    /** The tenant read, or empty for every tenant. */
    public Optional<String> tenant() {
        return Optional.ofNullable(tenant);
    }

    /** The token of the previous page, or empty for the first. */
    public Optional<String> token() {
        return page.token();
    }

    /** The most records the page may hold. */
    public int limit() {
        return page.limit();
    }

    PageRequest pageRequest() {
        return page;
    }

    @Override
    public boolean equals(@Nullable Object o) {
        return o instanceof JournalPageRequest && ((JournalPageRequest) o).page.equals(page);
    }

    @Override
    public int hashCode() {
        return page.hashCode();
    }

    @Override
    public String toString() {
        return "JournalPageRequest[" + page + "]";
    }
}
