package io.lake.meta.ops;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.internal.Checks;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * An operation's identity: a tenant (1 to {@value #MAX_TENANT_LENGTH} characters from
 * {@code [A-Za-z0-9_.-]}) and an operation id chosen by the client (1 to
 * {@value #MAX_OPERATION_ID_LENGTH} characters from {@code [A-Za-z0-9_.:-]}), each starting with a
 * letter or digit. Its record lives under {@code ops/<tenant>/<operationId>}. Immutable.
 *
 * @since 0.1.0
 */
public final class OperationId {

    /** The key family of every operation record. */
    public static final String FAMILY = "ops";

    public static final int MAX_TENANT_LENGTH = 128;
    public static final int MAX_OPERATION_ID_LENGTH = 256;

    private static final Pattern TENANT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]*");
    private static final Pattern OPERATION = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.:-]*");

    private final String tenant;
    private final String operationId;

    private OperationId(String tenant, String operationId) {
        this.tenant = tenant;
        this.operationId = operationId;
    }

    /**
     * The id of operation {@code operationId} of {@code tenant}.
     *
     * @throws InvalidArgumentException if the tenant or the operation id breaks its rule; the message names it
     */
    public static OperationId of(String tenant, String operationId) {
        return new OperationId(
                requireTenant(tenant),
                require("operation id", operationId, OPERATION, MAX_OPERATION_ID_LENGTH, "[A-Za-z0-9_.:-]"));
    }

    /**
     * The operation a journal key names.
     *
     * @throws InvalidArgumentException if {@code key} is not {@code ops/<tenant>/<operationId>} with valid parts
     */
    public static OperationId fromKey(MetaKey key) {
        Checks.notNull(key, "operation key");
        String[] parts = key.rest().split("/", -1);
        if (!FAMILY.equals(key.family()) || parts.length != 2) {
            throw new InvalidArgumentException("key '" + key + "' is not an operation key: operations live under "
                    + FAMILY + "/<tenant>/<operationId>");
        }
        return of(parts[0], parts[1]);
    }

    /**
     * Checks a tenant name.
     *
     * @throws InvalidArgumentException if it breaks the rule
     */
    public static String requireTenant(String tenant) {
        return require("tenant", tenant, TENANT, MAX_TENANT_LENGTH, "[A-Za-z0-9_.-]");
    }

    static KeyPrefix prefixOf(String tenant) {
        return KeyPrefix.of(FAMILY + "/" + requireTenant(tenant) + "/");
    }

    static KeyPrefix allTenants() {
        return KeyPrefix.family(FAMILY);
    }

    private static String require(String what, String text, Pattern rule, int maxLength, String characters) {
        Checks.notNull(text, what);
        if (text.isEmpty() || text.length() > maxLength || !rule.matcher(text).matches()) {
            throw new InvalidArgumentException(what + " '" + text + "' is invalid: use 1 to " + maxLength
                    + " characters from " + characters + ", starting with a letter or digit");
        }
        return text;
    }

    /** The tenant the operation belongs to. */
    public String tenant() {
        return tenant;
    }

    /** The operation's id within its tenant. */
    public String operationId() {
        return operationId;
    }

    /** The key of this operation's record. */
    public MetaKey key() {
        return MetaKey.of(FAMILY + "/" + tenant + "/" + operationId);
    }

    @Override
    public boolean equals(@Nullable Object o) {
        return o instanceof OperationId
                && ((OperationId) o).tenant.equals(tenant)
                && ((OperationId) o).operationId.equals(operationId);
    }

    @Override
    public int hashCode() {
        return 31 * tenant.hashCode() + operationId.hashCode();
    }

    /** {@code tenant/operationId}. */
    @Override
    public String toString() {
        return tenant + "/" + operationId;
    }
}
