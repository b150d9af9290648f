package com.meetingreminders.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Requests sent byte for byte as the test wrote them, with the default caller's token: RestAssured adds a charset to
 * a text body's Content-Type and always names one, and the JDK client will not send a Content-Length it did not
 * compute, so hostile requests go through here.
 */
public final class RawHttp {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Pattern STATUS = Pattern.compile("^HTTP/1\\.1 (\\d{3})");
    private static final Pattern CONTENT_TYPE = Pattern.compile("(?im)^content-type:\\s*([^\\r\\n;]+)");

    private RawHttp() {}

    /** A request: {@code contentType} null sends none, {@code body} null sends none. */
    public record Request(String method, String pathAndQuery, String contentType, byte[] body) {}

    /** What came back; {@code contentType} without parameters. */
    public record Answer(int status, String contentType, String body) {}

    public static Answer send(String baseUrl, Request request) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(baseUrl + request.pathAndQuery()))
                .timeout(Duration.ofSeconds(60))
                .header("Authorization", Tokens.bearer(Tokens.DEFAULT_CALLER))
                .method(
                        request.method(),
                        request.body() == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofByteArray(request.body()));
        if (request.contentType() != null) {
            builder.header("Content-Type", request.contentType());
        }
        try {
            HttpResponse<String> answer = HTTP.send(builder.build(), HttpResponse.BodyHandlers.ofString());
            String type = answer.headers().firstValue("Content-Type").orElse("");
            return new Answer(answer.statusCode(), type.replaceAll(";.*", "").trim(), answer.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * A POST whose Content-Length announces {@code declaredLength} bytes while {@code body} is sent; the connection is
     * closed after the answer's head and whatever body came with it.
     */
    public static Answer postDeclaring(String host, int port, String path, long declaredLength, byte[] body) {
        try (Socket socket = new Socket(host, port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            String head = "POST " + path + " HTTP/1.1\r\nHost: " + host + ":" + port + "\r\nAuthorization: "
                    + Tokens.bearer(Tokens.DEFAULT_CALLER) + "\r\nContent-Type: application/json\r\nContent-Length: "
                    + declaredLength + "\r\nConnection: close\r\n\r\n";
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            socket.shutdownOutput();
            String answer = readAll(socket.getInputStream());
            Matcher status = STATUS.matcher(answer);
            Matcher type = CONTENT_TYPE.matcher(answer);
            int bodyStart = answer.indexOf("\r\n\r\n");
            return new Answer(
                    status.find() ? Integer.parseInt(status.group(1)) : -1,
                    type.find() ? type.group(1).trim() : "",
                    bodyStart < 0 ? "" : answer.substring(bodyStart + 4));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        in.transferTo(bytes);
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
