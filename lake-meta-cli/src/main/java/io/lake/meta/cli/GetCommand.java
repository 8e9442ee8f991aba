package io.lake.meta.cli;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code get KEY}: prints a key's value. */
@Command(name = "get", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Print a key's value. Exits 1 when the key is absent.")
final class GetCommand extends StoreCommand {

    @Parameters(index = "0", paramLabel = "KEY", description = "The key, family/rest: for example tbl/sales/orders.")
    String key;

    @Override
    public Integer call() {
        MetaKey metaKey = MetaKey.of(key);
        ValueEncoding encoding = format.encoding();
        Optional<MetaValue> value = withStore(false, store -> store.get(metaKey));
        if (format.json) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("key", key);
            json.put("found", value.isPresent());
            if (value.isPresent()) {
                json.put("value", encoding.encode(value.get(), "value of " + key));
                json.put("encoding", encoding.label());
            }
            spec.commandLine().getOut().println(Json.write(json));
        } else if (value.isPresent()) {
            spec.commandLine().getOut().println(encoding.encode(value.get(), "value of " + key));
        } else {
            ErrorHandler.printError(spec.commandLine(), key + " is absent");
        }
        spec.commandLine().getOut().flush();
        return value.isPresent() ? ExitCodes.OK : ExitCodes.NOT_FOUND;
    }
}
