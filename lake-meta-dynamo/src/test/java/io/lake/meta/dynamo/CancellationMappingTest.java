package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.WriteResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * How the store reads DynamoDB's answers, driven by a scripted client: every cancellation
 * reason combination, and answers a real endpoint rarely gives (an unknown reason, a create
 * conflict without the item). The in-process server tests cover the same paths end to end.
 */
class CancellationMappingTest {

    private static final MetaKey GUARD = MetaKey.of("lease/leader");
    private static final MetaKey TARGET = MetaKey.of("tbl/ns1/orders");
    private static final MetaValue G = MetaValue.utf8("epoch-1");

    /** A client that answers TransactWriteItems and PutItem with scripted outcomes and records the requests. */
    static final class ScriptedClient implements DynamoDbClient {
        Function<TransactWriteItemsRequest, TransactWriteItemsResponse> transact;
        Function<PutItemRequest, PutItemResponse> put;
        final List<TransactWriteItemsRequest> transactions = new ArrayList<>();

        @Override
        public TransactWriteItemsResponse transactWriteItems(TransactWriteItemsRequest request) {
            transactions.add(request);
            return transact.apply(request);
        }

        @Override
        public PutItemResponse putItem(PutItemRequest request) {
            return put.apply(request);
        }

        @Override
        public String serviceName() {
            return "dynamodb";
        }

        @Override
        public void close() {}
    }

    private final ScriptedClient client = new ScriptedClient();
    private final DynamoTableStore store =
            new DynamoTableStore(client, "t", new V2Layout(16), DynamoMetaStore.DEFAULT_POLL_INTERVAL);

    private static TransactionCanceledException cancelled(CancellationReason... reasons) {
        return TransactionCanceledException.builder()
                .cancellationReasons(Arrays.asList(reasons))
                .awsErrorDetails(AwsErrorDetails.builder()
                        .errorCode("TransactionCanceledException")
                        .errorMessage("Transaction cancelled")
                        .build())
                .statusCode(400)
                .numAttempts(1)
                .build();
    }

    private static CancellationReason reason(String code) {
        return CancellationReason.builder().code(code).build();
    }

    private static CancellationReason failedWithItem(MetaKey key, MetaValue current) {
        return CancellationReason.builder()
                .code("ConditionalCheckFailed")
                .message("The conditional request failed")
                .item(Map.of(
                        "pk",
                        AttributeValue.fromS(key.family() + "#0"),
                        "sk",
                        AttributeValue.fromS(key.toString()),
                        "v",
                        AttributeValue.fromB(SdkBytes.fromByteArray(current.toByteArray()))))
                .build();
    }

    private GuardedResult guardedUpdate() {
        return store.applyGuarded(
                new GuardedMutation(GUARD, G, Mutation.update(TARGET, MetaValue.utf8("old"), MetaValue.utf8("new"))));
    }

    @Test
    void guardFailed_isGuardRejected_whateverTheTarget() {
        client.transact = r -> {
            throw cancelled(
                    failedWithItem(GUARD, MetaValue.utf8("epoch-2")), failedWithItem(TARGET, MetaValue.utf8("x")));
        };
        assertThat(guardedUpdate()).isEqualTo(GuardedResult.guardRejected());
        client.transact = r -> {
            throw cancelled(reason("ConditionalCheckFailed"), reason("None"));
        };
        assertThat(guardedUpdate()).isEqualTo(GuardedResult.guardRejected());
    }

    @Test
    void targetFailed_isTargetConflict_withTheReportedValue() {
        client.transact = r -> {
            throw cancelled(reason("None"), failedWithItem(TARGET, MetaValue.utf8("other")));
        };
        GuardedResult result = guardedUpdate();
        assertThat(result.outcome()).isEqualTo(GuardedResult.Outcome.TARGET_CONFLICT);
        assertThat(result.targetResult()).contains(WriteResult.conflict(Optional.of(MetaValue.utf8("other"))));
    }

    @Test
    void targetFailedWithoutItem_isConflictWithAbsentKey_forUpdate() {
        client.transact = r -> {
            throw cancelled(reason("None"), reason("ConditionalCheckFailed"));
        };
        assertThat(guardedUpdate().targetResult()).contains(WriteResult.conflict(Optional.empty()));
    }

    @Test
    void targetCreateFailedWithoutItem_isConflictWithUnknownCurrent_neverAbsent() {
        client.transact = r -> {
            throw cancelled(reason("None"), reason("ConditionalCheckFailed"));
        };
        GuardedResult result =
                store.applyGuarded(new GuardedMutation(GUARD, G, Mutation.create(TARGET, MetaValue.utf8("v"))));
        assertThat(result.targetResult()).contains(WriteResult.conflictWithUnknownCurrent());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded", "RequestLimitExceeded"
            })
    void retryableReason_onEitherAction_isUnavailable(String code) {
        client.transact = r -> {
            throw cancelled(reason(code), reason("None"));
        };
        assertThatThrownBy(this::guardedUpdate)
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining(code)
                .hasMessageContaining("nothing was applied");
        client.transact = r -> {
            throw cancelled(reason("None"), reason(code));
        };
        assertThatThrownBy(this::guardedUpdate).isInstanceOf(StoreUnavailableException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ValidationError", "ItemCollectionSizeLimitExceeded", "SomethingNew"})
    void unknownReason_isAnError_neverAConflict(String code) {
        client.transact = r -> {
            throw cancelled(reason("None"), reason(code));
        };
        assertThatThrownBy(this::guardedUpdate)
                .isInstanceOf(DynamoStoreException.class)
                .hasMessageContaining(code)
                .satisfies(
                        e -> assertThat(((DynamoStoreException) e).retryable()).isFalse());
        client.transact = r -> {
            throw cancelled(reason(code), reason("ConditionalCheckFailed"));
        };
        assertThatThrownBy(this::guardedUpdate).isInstanceOf(DynamoStoreException.class);
    }

    @Test
    void reasonListOfWrongLength_isAnError() {
        client.transact = r -> {
            throw cancelled(reason("ConditionalCheckFailed"));
        };
        assertThatThrownBy(this::guardedUpdate).isInstanceOf(DynamoStoreException.class);
        client.transact = r -> {
            throw cancelled(reason("None"), reason("None"));
        };
        assertThatThrownBy(this::guardedUpdate).isInstanceOf(DynamoStoreException.class);
    }

    @Test
    void eachGuardedCall_sendsItsOwnClientRequestToken() {
        client.transact = r -> TransactWriteItemsResponse.builder().build();
        guardedUpdate();
        guardedUpdate();
        assertThat(client.transactions).hasSize(2);
        String first = client.transactions.get(0).clientRequestToken();
        String second = client.transactions.get(1).clientRequestToken();
        assertThat(first).hasSize(36).isNotEqualTo(second);
        assertThat(second).hasSize(36);
    }

    @Test
    void guardedRequest_checksTheGuardAndWritesTheTarget_inOneTransaction() {
        client.transact = r -> TransactWriteItemsResponse.builder().build();
        assertThat(guardedUpdate()).isEqualTo(GuardedResult.applied());
        TransactWriteItemsRequest request = client.transactions.get(0);
        assertThat(request.transactItems()).hasSize(2);
        assertThat(request.transactItems()
                        .get(0)
                        .conditionCheck()
                        .key()
                        .get("sk")
                        .s())
                .isEqualTo(GUARD.toString());
        assertThat(request.transactItems().get(0).conditionCheck().returnValuesOnConditionCheckFailureAsString())
                .isEqualTo("ALL_OLD");
        assertThat(request.transactItems().get(1).put().item().get("sk").s()).isEqualTo(TARGET.toString());
        assertThat(request.transactItems().get(1).put().item().get("pk").s()).isEqualTo("tbl#6");
        assertThat(request.transactItems().get(1).put().returnValuesOnConditionCheckFailureAsString())
                .isEqualTo("ALL_OLD");
    }

    @Test
    void createConflictWithoutItem_isUnknownCurrent() {
        client.put = r -> {
            throw ConditionalCheckFailedException.builder()
                    .statusCode(400)
                    .numAttempts(1)
                    .build();
        };
        assertThat(store.create(TARGET, MetaValue.utf8("v"))).isEqualTo(WriteResult.conflictWithUnknownCurrent());
    }

    @Test
    void conditionFailedAfterARetry_withoutAttemptMetrics_isOutcomeUnknown() {
        // A client that publishes no metrics: the store cannot tell why the SDK retried, so a
        // failed condition on a later attempt may be the store's own earlier write.
        client.put = r -> {
            throw ConditionalCheckFailedException.builder()
                    .statusCode(400)
                    .numAttempts(2)
                    .build();
        };
        assertThatThrownBy(() -> store.update(TARGET, MetaValue.utf8("a"), MetaValue.utf8("b")))
                .isInstanceOf(OutcomeUnknownException.class);
    }

    @Test
    void cancellationAfterARetry_withoutAttemptMetrics_isOutcomeUnknown() {
        // The cancellation answers the last attempt; an earlier one may have committed.
        client.transact = r -> {
            throw cancelled(reason("None"), reason("TransactionConflict")).toBuilder()
                    .numAttempts(2)
                    .build();
        };
        assertThatThrownBy(this::guardedUpdate).isInstanceOf(OutcomeUnknownException.class);
        client.transact = r -> {
            throw cancelled(reason("ConditionalCheckFailed"), reason("None")).toBuilder()
                    .numAttempts(2)
                    .build();
        };
        assertThatThrownBy(this::guardedUpdate).isInstanceOf(OutcomeUnknownException.class);
    }

    @Test
    void lostResponse_onAWrite_isOutcomeUnknown() {
        client.put = r -> {
            throw SdkClientException.builder()
                    .message("Unable to execute HTTP request")
                    .cause(new IOException("Connection reset"))
                    .build();
        };
        assertThatThrownBy(() -> store.create(TARGET, MetaValue.utf8("v")))
                .isInstanceOf(OutcomeUnknownException.class)
                .hasMessageContaining("re-read");
    }

    @Test
    void interruptedWrite_isOutcomeUnknown() {
        client.transact = r -> {
            throw AbortedException.builder().message("Thread was interrupted").build();
        };
        assertThatThrownBy(this::guardedUpdate).isInstanceOf(OutcomeUnknownException.class);
    }

    @Test
    void clientFailureWithoutIo_isNotRetryableStoreError() {
        client.put = r -> {
            throw SdkClientException.builder()
                    .message("Unable to load credentials")
                    .numAttempts(1)
                    .build();
        };
        assertThatThrownBy(() -> store.create(TARGET, MetaValue.utf8("v")))
                .isInstanceOf(DynamoStoreException.class)
                .hasMessageContaining("credentials");
    }
}
