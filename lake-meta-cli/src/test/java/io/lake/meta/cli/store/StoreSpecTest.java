package io.lake.meta.cli.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.cli.UsageException;
import java.net.URI;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.regions.Region;

class StoreSpecTest {

    @Test
    void parse_rocksDirectory() {
        assertThat(StoreSpec.parse("rocks:/var/lib/meta")).isEqualTo(new RocksStoreSpec(Path.of("/var/lib/meta")));
        assertThat(StoreSpec.parse("rocks:relative/dir")).isEqualTo(new RocksStoreSpec(Path.of("relative/dir")));
    }

    @Test
    void parse_keepsColonsInTheLocation() {
        assertThat(StoreSpec.parse("rocks:a:b")).isEqualTo(new RocksStoreSpec(Path.of("a:b")));
    }

    @Test
    void parse_unknownScheme() {
        assertThatThrownBy(() -> StoreSpec.parse("etcd:localhost"))
                .isInstanceOf(TypeConversionException.class)
                .hasMessage(
                        "unknown store scheme 'etcd' in 'etcd:localhost': the supported schemes are rocks:DIR, dynamo:TABLE or postgres:JDBC-URL");
    }

    @Test
    void parse_noScheme() {
        assertThatThrownBy(() -> StoreSpec.parse("meta-db"))
                .isInstanceOf(TypeConversionException.class)
                .hasMessageStartingWith("'meta-db' names no store scheme");
        assertThatThrownBy(() -> StoreSpec.parse(":meta-db"))
                .isInstanceOf(TypeConversionException.class)
                .hasMessageStartingWith("':meta-db' names no store scheme");
    }

    @Test
    void parse_noLocation() {
        assertThatThrownBy(() -> StoreSpec.parse("rocks:"))
                .isInstanceOf(TypeConversionException.class)
                .hasMessage("'rocks:' names no location: write rocks:DIR, dynamo:TABLE or postgres:JDBC-URL");
        assertThatThrownBy(() -> StoreSpec.parse("dynamo:"))
                .isInstanceOf(TypeConversionException.class)
                .hasMessage("'dynamo:' names no location: write rocks:DIR, dynamo:TABLE or postgres:JDBC-URL");
    }

    @Test
    void parse_dynamoTable() {
        assertThat(StoreSpec.parse("dynamo:lake-meta_v2.prod"))
                .isEqualTo(new DynamoStoreSpec("lake-meta_v2.prod", null, null));
    }

    @Test
    void parse_invalidDynamoTableName_usesTheBuildersRule() {
        assertThatThrownBy(() -> StoreSpec.parse("dynamo:ab"))
                .isInstanceOf(TypeConversionException.class)
                .hasMessage(
                        "table name 'ab' is not a valid DynamoDB table name: use 3 to 255 characters of [a-zA-Z0-9_.-]");
        assertThatThrownBy(() -> StoreSpec.parse("dynamo:my/table"))
                .isInstanceOf(TypeConversionException.class)
                .hasMessageContaining("'my/table' is not a valid DynamoDB table name");
    }

    @Test
    void dynamo_takesEndpointAndRegion() {
        StoreSpec spec = StoreSpec.parse("dynamo:tables").withConnection("http://127.0.0.1:8000", "eu-west-1");

        assertThat(spec).isEqualTo(new DynamoStoreSpec("tables", URI.create("http://127.0.0.1:8000"), "eu-west-1"));
        assertThat(StoreSpec.parse("dynamo:tables").withConnection(null, null))
                .isEqualTo(new DynamoStoreSpec("tables", null, null));
    }

    @Test
    void dynamo_malformedEndpointOrRegion_isAUsageError() {
        StoreSpec spec = StoreSpec.parse("dynamo:tables");

        assertThatThrownBy(() -> spec.withConnection("127.0.0.1:8000", null))
                .isInstanceOf(UsageException.class)
                .hasMessage("--endpoint '127.0.0.1:8000' is not an http or https URI with a host:"
                        + " write one such as http://127.0.0.1:8000");
        assertThatThrownBy(() -> spec.withConnection("http://", null)).isInstanceOf(UsageException.class);
        assertThatThrownBy(() -> spec.withConnection("ftp://host/", null)).isInstanceOf(UsageException.class);
        assertThatThrownBy(() -> spec.withConnection(null, "Europe West"))
                .isInstanceOf(UsageException.class)
                .hasMessage("--region 'Europe West' is not a region name: write one such as us-east-1");
    }

    @Test
    void rocks_refusesEndpointAndRegion() {
        StoreSpec spec = StoreSpec.parse("rocks:./db");

        assertThat(spec.withConnection(null, null)).isSameAs(spec);
        assertThatThrownBy(() -> spec.withConnection("http://127.0.0.1:8000", null))
                .isInstanceOf(UsageException.class)
                .hasMessage("--endpoint applies only to a dynamo:TABLE store, not to rocks:./db:"
                        + " leave out --endpoint and --region");
        assertThatThrownBy(() -> spec.withConnection(null, "us-east-1"))
                .isInstanceOf(UsageException.class)
                .hasMessageStartingWith("--region applies only to a dynamo:TABLE store");
    }

    @Test
    void dynamo_regionFromTheFlag_elseTheChain_elseAUsageError() {
        assertThat(DynamoStoreSpec.region("eu-west-1", () -> {
                    throw new AssertionError("the chain is not asked when --region is given");
                }))
                .isEqualTo(Region.EU_WEST_1);
        assertThat(DynamoStoreSpec.region(null, () -> Region.AP_SOUTH_1)).isEqualTo(Region.AP_SOUTH_1);
        assertThatThrownBy(() -> DynamoStoreSpec.region(null, () -> {
                    throw SdkClientException.create("Unable to load region from any of the providers in the chain");
                }))
                .isInstanceOf(UsageException.class)
                .hasMessage("no AWS region: pass --region (such as --region us-east-1), or set AWS_REGION"
                        + " or a region in your AWS profile");
    }

    @Test
    void dynamo_noCredentials_isAUsageErrorThatPrintsNoChainDetails() {
        assertThatThrownBy(() -> DynamoStoreSpec.requireCredentials(() -> {
                    throw SdkClientException.create(
                            "Unable to load credentials from any of the providers in the chain");
                }))
                .isInstanceOf(UsageException.class)
                .hasMessage("no AWS credentials: the AWS SDK's default chain found none; set AWS_ACCESS_KEY_ID"
                        + " and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE (for dynamo-local any values work)");
        DynamoStoreSpec.requireCredentials(() -> AwsBasicCredentials.create("id", "secret"));
    }
}
