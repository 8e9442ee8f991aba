package io.lake.meta.recipes;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.PageRequest;
import io.lake.meta.internal.Checks;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Which records of one recipe to read, one bounded page at a time: a prefix within the recipe's
 * key family (every record, or one tenant or namespace), the continuation token of the previous
 * page, and a limit of 1 to {@value io.lake.meta.Limits#MAX_PAGE_LIMIT}. The recipe makes the
 * first request ({@code TableRegistry.inNamespace("sales", 100)},
 * {@code OperationJournal.allTenants(500)}) and reads it into a {@link TypedPage} of the same
 * record type, so a request of one recipe cannot be handed to another. Validated when made,
 * before any I/O. Immutable.
 *
 * <pre>{@code
 * Optional<TypedPageRequest<TableRegistration>> request = Optional.of(TableRegistry.inNamespace("sales", 100));
 * while (request.isPresent()) {
 *     TypedPage<TableRegistration> page = registry.scanTablesPage(request.get());
 *     page.items().forEach(r -> System.out.println(r.id()));
 *     request = request.get().next(page);
 * }
 * }</pre>
 *
 * @param <T> the decoded record type ({@code OperationRecord}, {@code TableRegistration})
 * @since 0.1.0
 */
public final class TypedPageRequest<T> {

    private final PageRequest page;

    private TypedPageRequest(PageRequest page) {
        this.page = page;
    }

    /**
     * A request for the records of the store page {@code page} asks for. Recipes make theirs with
     * their own factories; a recipe refuses a request outside its key family when it reads it.
     *
     * @throws InvalidArgumentException if {@code page} is null
     */
    public static <T> TypedPageRequest<T> of(PageRequest page) {
        return new TypedPageRequest<>(Checks.notNull(page, "page request"));
    }

    /**
     * This request resumed at {@code token}, the continuation token of a page of the same
     * selection.
     *
     * @throws InvalidArgumentException if {@code token} is null or empty; a token of another
     *     selection is refused by the store when the page is read
     */
    public TypedPageRequest<T> after(String token) {
        return new TypedPageRequest<>(
                PageRequest.after(page.prefix(), Checks.notNull(token, "page token"), page.limit()));
    }

    /**
     * The request for the page after {@code previous}, or empty when it was the last.
     *
     * @throws InvalidArgumentException if {@code previous} is null
     */
    public Optional<TypedPageRequest<T>> next(TypedPage<T> previous) {
        return Checks.notNull(previous, "previous page").nextToken().map(this::after);
    }

    /** The prefix every record of the page lies under: the recipe's family, or one tenant's or namespace's part of it. */
    public KeyPrefix prefix() {
        return page.prefix();
    }

    /** The token of the previous page, or empty for the first. */
    public Optional<String> token() {
        return page.token();
    }

    /** The most records the page may hold. */
    public int limit() {
        return page.limit();
    }

    /** The store page this request reads. */
    public PageRequest pageRequest() {
        return page;
    }

    @Override
    public boolean equals(@Nullable Object o) {
        return o instanceof TypedPageRequest<?> other && other.page.equals(page);
    }

    @Override
    public int hashCode() {
        return page.hashCode();
    }

    @Override
    public String toString() {
        return "TypedPageRequest[" + page + "]";
    }
}
