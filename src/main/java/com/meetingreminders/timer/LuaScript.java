package com.meetingreminders.timer;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/** A script of src/main/resources/redis, read once; Redisson's script cache sends it as EVALSHA. */
public final class LuaScript {

    private final String source;

    private LuaScript(String source) {
        this.source = source;
    }

    public static LuaScript load(String name) {
        String path = "redis/" + name + ".lua";
        try (InputStream in = LuaScript.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("Missing resource " + path);
            }
            return new LuaScript(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<Object> list(RedissonClient redis, List<Object> keys, List<String> args) {
        return redis.getScript(StringCodec.INSTANCE)
                .eval(RScript.Mode.READ_WRITE, source, RScript.ReturnType.LIST, keys, args.toArray());
    }

    /** For callers that must not block, such as request filters on the event loop. */
    public CompletionStage<Long> numberAsync(RedissonClient redis, List<Object> keys, List<String> args) {
        return redis.getScript(StringCodec.INSTANCE)
                .evalAsync(RScript.Mode.READ_WRITE, source, RScript.ReturnType.LONG, keys, args.toArray());
    }

    public long number(RedissonClient redis, List<Object> keys, List<String> args) {
        Long result = redis.getScript(StringCodec.INSTANCE)
                .eval(RScript.Mode.READ_WRITE, source, RScript.ReturnType.LONG, keys, args.toArray());
        return result;
    }
}
