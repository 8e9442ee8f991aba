package io.lake.meta.registry;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.PageRequest;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Which registrations to read: every namespace or one, an optional continuation token from the
 * previous page, and a limit of 1 to {@value io.lake.meta.Limits#MAX_PAGE_LIMIT}. Validated when
 * built, before any I/O. Immutable.
 */
public final class TablePageRequest {

    private final @Nullable String namespace;
    private final PageRequest page;

    private TablePageRequest(@Nullable String namespace, PageRequest page) {
        this.namespace = namespace;
        this.page = page;
    }

    /**
     * The first page of every registration.
     *
     * @throws InvalidArgumentException if {@code limit} is outside 1..10 000
     */
    public static TablePageRequest allNamespaces(int limit) {
        return new TablePageRequest(null, PageRequest.first(TableId.allTables(), limit));
    }

    /**
     * The first page of the registrations in {@code namespace} (never those of another namespace
     * that starts with the same characters).
     *
     * @throws InvalidArgumentException if the namespace is invalid or {@code limit} is outside 1..10 000
     */
    public static TablePageRequest inNamespace(String namespace, int limit) {
        return new TablePageRequest(namespace, PageRequest.first(TableId.prefixOf(namespace), limit));
    }

    /**
     * This request resumed at {@code token}, the continuation token of a page of the same
     * namespace selection.
     *
     * @throws InvalidArgumentException if {@code token} is null or empty; a token of another
     *     selection is refused by the store when the page is read
     */
    public TablePageRequest after(String token) {
        if (token == null) {
            throw new InvalidArgumentException("page token must not be null");
        }
        return new TablePageRequest(namespace, PageRequest.after(page.prefix(), token, page.limit()));
    }

    /** The request for the page after {@code previous}, or empty when it was the last. */
    public Optional<TablePageRequest> next(TablePage previous) {
        Arguments.notNull(previous, "previous page");
        return previous.nextToken().map(this::after);
    }

    /** The namespace read, or empty for every namespace. */
    public Optional<String> namespace() {
        return Optional.ofNullable(namespace);
    }

    /** The token of the previous page, or empty for the first. */
    public Optional<String> token() {
        return page.token();
    }

    /** The most registrations the page may hold. */
    public int limit() {
        return page.limit();
    }

    PageRequest pageRequest() {
        return page;
    }

    @Override
    public boolean equals(@Nullable Object o) {
        return o instanceof TablePageRequest && ((TablePageRequest) o).page.equals(page);
    }

    @Override
    public int hashCode() {
        return page.hashCode();
    }

    @Override
    public String toString() {
        return "TablePageRequest[" + page + "]";
    }
}
