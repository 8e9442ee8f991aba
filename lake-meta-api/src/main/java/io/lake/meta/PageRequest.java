package io.lake.meta;

import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What to read: a prefix, an optional continuation token from the previous page, and a limit
 * of 1 to {@value Limits#MAX_PAGE_LIMIT} entries. Validated at construction, before any I/O.
 *
 * @since 0.1.0
 */
public final class PageRequest {

    private final KeyPrefix prefix;
    private final @Nullable String token;
    private final int limit;

    private PageRequest(KeyPrefix prefix, @Nullable String token, int limit) {
        this.prefix = Checks.notNull(prefix, "prefix");
        if (limit < 1 || limit > Limits.MAX_PAGE_LIMIT) {
            throw new InvalidArgumentException("page limit " + limit + " is out of range: use 1 to "
                    + Limits.MAX_PAGE_LIMIT + " and follow the continuation token for more");
        }
        if (token != null && token.isEmpty()) {
            throw new InvalidPageTokenException("page token is empty: pass no token to read the first page");
        }
        this.token = token;
        this.limit = limit;
    }

    /** The first page of {@code prefix}. */
    public static PageRequest first(KeyPrefix prefix, int limit) {
        return new PageRequest(prefix, null, limit);
    }

    /** The page that follows the one which returned {@code token}. */
    public static PageRequest after(KeyPrefix prefix, String token, int limit) {
        return new PageRequest(prefix, Checks.notNull(token, "page token"), limit);
    }

    /** The request for the page after {@code page}, or empty when {@code page} was the last. */
    public Optional<PageRequest> next(Page page) {
        return Checks.notNull(page, "page").nextToken().map(t -> new PageRequest(prefix, t, limit));
    }

    /** The prefix every key of the page starts with. */
    public KeyPrefix prefix() {
        return prefix;
    }

    /** The continuation token; empty for the first page. */
    public Optional<String> token() {
        return Optional.ofNullable(token);
    }

    /** The most entries the page may hold: 1 to 10 000. */
    public int limit() {
        return limit;
    }

    @Override
    public boolean equals(@Nullable Object o) {
        if (!(o instanceof PageRequest)) {
            return false;
        }
        PageRequest other = (PageRequest) o;
        return prefix.equals(other.prefix) && Objects.equals(token, other.token) && limit == other.limit;
    }

    @Override
    public int hashCode() {
        return Objects.hash(prefix, token, limit);
    }

    @Override
    public String toString() {
        return "PageRequest[prefix=" + prefix + ", limit=" + limit + (token == null ? "" : ", token=" + token) + "]";
    }
}
