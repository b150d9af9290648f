package com.meetingreminders.timer;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.api.options.OptionalOptions;
import org.redisson.client.codec.StringCodec;

/** A script of src/main/resources/redis, read once; Redisson's script cache sends it as EVALSHA. */
public final class LuaScript {

    private final String name;
    private final String source;

    private LuaScript(String name, String source) {
        this.name = name;
        this.source = source;
    }

    public static LuaScript load(String name) {
        String path = "redis/" + name + ".lua";
        try (InputStream in = LuaScript.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("Missing resource " + path);
            }
            return new LuaScript(name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Where a script's calls are sent with the client's timeout and retries, for scripts that may run twice: a second
     * arm or settle finds its work done. Callers make it once and keep it, as {@link #sentOnce}.
     */
    public static RScript runner(RedissonClient redis) {
        return redis.getScript(StringCodec.INSTANCE);
    }

    List<Object> list(RScript runner, List<Object> keys, List<String> args) {
        return runner.eval(RScript.Mode.READ_WRITE, source, RScript.ReturnType.LIST, keys, args.toArray());
    }

    /**
     * Where a script's calls are sent once at most, for callers that must not block, such as request filters on the
     * event loop, and for scripts that refuse to run after their caller's deadline. Redisson waits for an answer no
     * longer than {@code timeout}, and never sends a call again: a call sent again after its timeout runs twice where
     * Redis was only slow, and a script that counts would count twice. Callers make it once and keep it: Redisson
     * builds it anew, over a copy of its command executor, on each call.
     */
    public static RScript sentOnce(RedissonClient redis, Duration timeout) {
        return redis.getScript(OptionalOptions.defaults()
                .codec(StringCodec.INSTANCE)
                .timeout(timeout)
                .retryAttempts(0));
    }

    /** The call of a script that returns numbers, without blocking, through {@code script} (as {@link #sentOnce}). */
    public CompletionStage<List<Long>> numbersAsync(RScript script, List<Object> keys, List<String> args) {
        return script.<List<Object>>evalAsync(
                        RScript.Mode.READ_WRITE, source, RScript.ReturnType.LIST, keys, args.toArray())
                .thenApply(reply -> {
                    if (reply == null || reply.contains(null)) {
                        throw nilReply();
                    }
                    return reply.stream()
                            .map(number -> ((Number) number).longValue())
                            .toList();
                });
    }

    /** The call of a script that returns a number, without blocking. */
    public CompletionStage<Long> numberAsync(RScript runner, List<Object> keys, List<String> args) {
        return runner.<Long>evalAsync(RScript.Mode.READ_WRITE, source, RScript.ReturnType.LONG, keys, args.toArray())
                .thenApply(this::present);
    }

    public long number(RScript runner, List<Object> keys, List<String> args) {
        return present(runner.eval(RScript.Mode.READ_WRITE, source, RScript.ReturnType.LONG, keys, args.toArray()));
    }

    /**
     * Every script called for a number returns one, yet a reply of nil was seen once under a benchmark's load: it is
     * a failed call, for each caller to handle as one, never a number to unbox.
     */
    private long present(Long result) {
        if (result == null) {
            throw nilReply();
        }
        return result;
    }

    private IllegalStateException nilReply() {
        return new IllegalStateException("Redis answered nil to the script " + name);
    }
}
