package io.lake.meta.dynamo;

import io.lake.meta.Mutation;
import io.lake.meta.WriteResult;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

/**
 * One mutation of one item as one conditional {@code PutItem} or {@code DeleteItem} (no
 * transaction surcharge), on either layout: the condition and the value come from
 * {@link WriteCondition}, a failed condition returns the item it failed on (ALL_OLD), and an
 * earlier attempt that may have applied turns any later refusal into an unknown outcome.
 */
final class SingleItemWrite {

    private final DynamoDbClient client;
    private final String table;
    private final ItemLayout layout;

    SingleItemWrite(DynamoDbClient client, String table, ItemLayout layout) {
        this.client = client;
        this.table = table;
        this.layout = layout;
    }

    WriteResult apply(Mutation mutation) {
        AttemptLog log = new AttemptLog();
        String what = describe(mutation);
        WriteCondition condition = WriteCondition.of(mutation, layout);
        try {
            if (mutation instanceof Mutation.Delete) {
                client.deleteItem(r -> r.tableName(table)
                        .key(layout.keyOf(mutation.key()))
                        .conditionExpression(condition.expression())
                        .expressionAttributeNames(condition.names())
                        .expressionAttributeValues(condition.values())
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                        .overrideConfiguration(log.attachToSingleItemWrite(client)));
            } else {
                client.putItem(r -> r.tableName(table)
                        .item(layout.itemOf(mutation.key(), mutation.newValue().orElseThrow()))
                        .conditionExpression(condition.expression())
                        .expressionAttributeNames(condition.names())
                        .expressionAttributeValues(condition.values())
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                        .overrideConfiguration(log.attachToSingleItemWrite(client)));
            }
            return WriteResult.applied();
        } catch (ConditionalCheckFailedException e) {
            Failures.requireConclusive(what, e, log, table);
            return condition
                    .failure(mutation.key(), e.hasItem() ? e.item() : null, table)
                    .asWriteResult();
        } catch (SdkException e) {
            throw Failures.onWrite(what, e, log, table);
        }
    }

    static String describe(Mutation m) {
        String kind = m instanceof Mutation.Create ? "create" : m instanceof Mutation.Update ? "update" : "delete";
        return kind + " of '" + m.key() + "'";
    }
}
