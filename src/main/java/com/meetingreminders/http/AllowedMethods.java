package com.meetingreminders.http;

import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The methods each path of the API takes, read once from the resources' JAX-RS annotations: the {@code Allow} of a 405
 * and of an OPTIONS answer. RESTEasy Reactive answers a 405 without the {@code Allow} that RFC 9110 requires, and
 * answers OPTIONS with every method of the resource class, whatever the path: POST for {@code /meetings/{id}}.
 */
@Startup
@ApplicationScoped
public class AllowedMethods {

    /** A path parameter: {@code {id}}, or {@code {id: regex}}. */
    private static final Pattern PARAMETER = Pattern.compile("\\{\\s*\\w[\\w.-]*\\s*(?::\\s*([^{}]+))?}");

    private final List<Template> templates;

    AllowedMethods(BeanManager beans) {
        Map<String, Set<String>> methodsByPath = new TreeMap<>();
        List<Class<?>> resources = beans.getBeans(Object.class, Any.Literal.INSTANCE).stream()
                .<Class<?>>map(Bean::getBeanClass)
                .filter(type -> type.isAnnotationPresent(Path.class))
                .distinct()
                .toList();
        // A native image reads a resource's methods only when NativeReflection registers them.
        for (Class<?> resource : resources) {
            for (Method method : resource.getMethods()) {
                httpMethodOf(method).ifPresent(verb -> methodsByPath
                        .computeIfAbsent(pathOf(resource, method), path -> new TreeSet<>())
                        .add(verb));
            }
        }
        this.templates = methodsByPath.entrySet().stream()
                .map(entry -> Template.of(entry.getKey(), entry.getValue()))
                .sorted(Comparator.comparingInt(Template::literals).reversed())
                .toList();
    }

    /**
     * What the resource at this request path takes, as {@code Allow} lists it, HEAD with GET and OPTIONS always; empty
     * where no resource is. Of the templates that match, the one with the most literal characters names it, so
     * {@code /meetings/batch} is the batch's, not a meeting's.
     */
    public Optional<String> of(String requestPath) {
        String path = withoutTrailingSlash(requestPath);
        return templates.stream()
                .filter(template -> template.pattern().matcher(path).matches())
                .findFirst()
                .map(Template::allow);
    }

    private static Optional<String> httpMethodOf(Method method) {
        return Stream.of(method.getAnnotations())
                .map(Annotation::annotationType)
                .map(type -> type.getAnnotation(HttpMethod.class))
                .filter(verb -> verb != null)
                .map(HttpMethod::value)
                .findFirst();
    }

    private static String pathOf(Class<?> resource, Method method) {
        Path own = method.getAnnotation(Path.class);
        String joined = "/" + resource.getAnnotation(Path.class).value() + "/" + (own == null ? "" : own.value());
        return withoutTrailingSlash(joined.replaceAll("/+", "/"));
    }

    /** Routing reads {@code /meetings/} as {@code /meetings}; the root stays {@code /}. */
    private static String withoutTrailingSlash(String path) {
        return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    private record Template(Pattern pattern, int literals, String allow) {

        static Template of(String path, Set<String> methods) {
            StringBuilder regex = new StringBuilder();
            int literals = 0;
            int from = 0;
            Matcher parameter = PARAMETER.matcher(path);
            while (parameter.find()) {
                String literal = path.substring(from, parameter.start());
                regex.append(Pattern.quote(literal));
                literals += literal.length();
                regex.append(
                        parameter.group(1) == null
                                ? "[^/]+"
                                : "(?:" + parameter.group(1).trim() + ")");
                from = parameter.end();
            }
            regex.append(Pattern.quote(path.substring(from)));
            literals += path.length() - from;
            Set<String> allowed = new LinkedHashSet<>(methods);
            if (allowed.contains(HttpMethod.GET)) {
                allowed.add(HttpMethod.HEAD);
            }
            allowed.add(HttpMethod.OPTIONS);
            return new Template(Pattern.compile(regex.toString()), literals, String.join(", ", allowed));
        }
    }
}
